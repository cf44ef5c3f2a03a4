package io.gantry.scheduler.kube;

import io.gantry.nodecommon.kube.ApiClients;
import io.gantry.nodecommon.kube.ApiServerProbe;
import io.gantry.nodecommon.kube.ClusterAccess;
import io.kubernetes.client.openapi.ApiClient;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import okhttp3.ConnectionPool;
import okhttp3.OkHttpClient;

/**
 * Builds the scheduler's and the extender's client-java 27 {@link ApiClient}: found as kubectl
 * finds its configuration ({@link ApiClients}), named {@link #USER_AGENT}, with no read timeout
 * (watches idle for minutes).
 */
public final class KubeClients {
  /**
   * The {@code User-Agent} of every request: audit logs name Gantry, and the RBAC tests tell its
   * calls from a test's own.
   */
  public static final String USER_AGENT =
      "gantry/"
          + java.util.Objects.requireNonNullElse(
              KubeClients.class.getPackage().getImplementationVersion(), "dev");

  private KubeClients() {}

  /** Replaces client-java's strict Gson with one that ignores unknown fields. Idempotent. */
  public static void installRelaxedJson() {
    ApiClients.installRelaxedJson();
  }

  /**
   * A client for {@code cluster} whose server has answered within {@code startupTimeout}.
   *
   * @throws IOException in one line: no configuration (naming what was tried), a file that is not a
   *     kubeconfig (naming it), an unknown context, or a server that did not answer in time (naming
   *     its address and the cause)
   */
  public static ApiClient connect(ClusterAccess cluster, Duration startupTimeout)
      throws IOException {
    ApiClient client = withoutReadTimeout(ApiClients.connect(cluster));
    ApiServerProbe.awaitReachable(client, startupTimeout);
    return client;
  }

  /** A client for a plain URL (tests against the fake API server). */
  public static ApiClient forUrl(String url) {
    return withoutReadTimeout(ApiClients.forUrl(url));
  }

  /**
   * The same client, its requests held to {@code limit} ({@link RateLimitInterceptor}) and keeping
   * an idle connection for each of {@code binds} concurrent binds, and a few for the status and
   * event writers: OkHttp keeps 5 by default, so with more binds at once than that, each bind
   * beyond the fifth would open and close a connection of its own.
   */
  public static ApiClient withLimits(ApiClient client, ApiRateLimit limit, int binds) {
    OkHttpClient.Builder http =
        client
            .getHttpClient()
            .newBuilder()
            .connectionPool(new ConnectionPool(Math.max(5, binds + 4), 5, TimeUnit.MINUTES));
    if (limit.limited()) {
      http.addInterceptor(new RateLimitInterceptor(limit));
    }
    client.setHttpClient(http.build());
    return client;
  }

  private static ApiClient withoutReadTimeout(ApiClient client) {
    client.setUserAgent(USER_AGENT);
    client.setHttpClient(
        client.getHttpClient().newBuilder().readTimeout(0, TimeUnit.SECONDS).build());
    return client;
  }
}
