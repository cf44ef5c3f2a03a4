package io.gantry.scheduler.kube;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.KubeConfig;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

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
            .create());
  }

  /** A client for {@code kubeconfig}, or the in-cluster configuration when it is empty. */
  public static ApiClient connect(Optional<Path> kubeconfig) throws IOException {
    installRelaxedJson();
    ApiClient client;
    if (kubeconfig.isPresent()) {
      try (Reader reader = Files.newBufferedReader(kubeconfig.get(), StandardCharsets.UTF_8)) {
        KubeConfig config = KubeConfig.loadKubeConfig(reader);
        config.setFile(kubeconfig.get().toAbsolutePath().toFile());
        client = ClientBuilder.kubeconfig(config).build();
      }
    } else {
      client = ClientBuilder.cluster().build();
    }
    return withoutReadTimeout(client);
  }

  /** A client for a plain URL (tests against the fake API server). */
  public static ApiClient forUrl(String url) {
    installRelaxedJson();
    return withoutReadTimeout(new ApiClient().setBasePath(url));
  }

  private static ApiClient withoutReadTimeout(ApiClient client) {
    client.setUserAgent(USER_AGENT);
    client.setHttpClient(
        client.getHttpClient().newBuilder().readTimeout(0, TimeUnit.SECONDS).build());
    return client;
  }
}
