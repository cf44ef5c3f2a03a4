package io.gantry.scheduler.kube;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.KubeConfig;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesTypeAdaptorFactory;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import okhttp3.ConnectionPool;
import okhttp3.OkHttpClient;

/**
 * Builds the scheduler's client-java 27 {@link ApiClient}: from a kubeconfig file, or the pod's
 * in-cluster service account by default, with no read timeout (watches idle for minutes).
 *
 * <p>Installs the relaxed JSON of protocols.md §7.1 first: client-java 27's generated models reject
 * fields they do not know and a pod watch BOOKMARK ({@code "containers": null}) fails the informer
 * and forces a full relist. The Gson is a static of {@link JSON}, so this holds for the whole JVM.
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
    JSON.setGson(
        JSON.createGson()
            .registerTypeAdapter(OffsetDateTime.class, new JSON.OffsetDateTimeTypeAdapter())
            // what DynamicKubernetesApi installs; a later call must not take it away again
            .registerTypeAdapterFactory(new DynamicKubernetesTypeAdaptorFactory())
            .create());
  }

  /**
   * A client for the configuration {@link KubeconfigLocator} finds: {@code kubeconfig} when given,
   * else kubectl's defaults, else the in-cluster service account.
   *
   * @throws IOException in one line: nothing found (naming what was tried), or a file that cannot
   *     be read or is not a kubeconfig (naming the file)
   */
  public static ApiClient connect(Optional<Path> kubeconfig) throws IOException {
    return connect(KubeconfigLocator.ofThisProcess().locate(kubeconfig));
  }

  /** A client for {@code location}. */
  public static ApiClient connect(KubeconfigLocator.Location location) throws IOException {
    installRelaxedJson();
    ApiClient client;
    if (location.file().isPresent()) {
      client = ClientBuilder.kubeconfig(read(location.file().get())).build();
    } else {
      client = ClientBuilder.cluster().build();
    }
    return withoutReadTimeout(client);
  }

  private static KubeConfig read(Path file) throws IOException {
    KubeConfig config;
    String server;
    try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      config = KubeConfig.loadKubeConfig(reader);
      server = config == null ? null : config.getServer();
    } catch (NoSuchFileException e) {
      throw new IOException(file + ": no such file", e);
    } catch (RuntimeException e) {
      // SnakeYAML's errors span several lines with a caret; the user needs the file and that it
      // is not a kubeconfig
      throw new IOException(file + ": not a kubeconfig (YAML with clusters, users, contexts)", e);
    }
    if (server == null) {
      throw new IOException(file + ": not a kubeconfig: no server for its current context");
    }
    config.setFile(file.toAbsolutePath().toFile());
    return config;
  }

  /** A client for a plain URL (tests against the fake API server). */
  public static ApiClient forUrl(String url) {
    installRelaxedJson();
    return withoutReadTimeout(new ApiClient().setBasePath(url));
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
