package io.gantry.nodecommon.kube;

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

/**
 * A node component's client-java {@link ApiClient}: from a kubeconfig file, or the pod's in-cluster
 * service account by default. Installs the relaxed JSON of protocols.md §7.1 first (client-java
 * 27's models reject fields they do not know, and a newer API server adds some); the Gson is a
 * static of {@link JSON}, so this holds for the whole JVM.
 */
public final class ApiClients {
  private ApiClients() {}

  /** A client for {@code kubeconfig}, or the in-cluster configuration when it is empty. */
  public static ApiClient connect(Optional<Path> kubeconfig) throws IOException {
    installRelaxedJson();
    if (kubeconfig.isEmpty()) {
      return ClientBuilder.cluster().build();
    }
    try (Reader reader = Files.newBufferedReader(kubeconfig.get(), StandardCharsets.UTF_8)) {
      KubeConfig config = KubeConfig.loadKubeConfig(reader);
      config.setFile(kubeconfig.get().toAbsolutePath().toFile());
      return ClientBuilder.kubeconfig(config).build();
    }
  }

  /** A client for a plain URL, such as the fake API server of the tests. */
  public static ApiClient forUrl(String url) {
    installRelaxedJson();
    return new ApiClient().setBasePath(url);
  }

  private static void installRelaxedJson() {
    JSON.setGson(
        JSON.createGson()
            .registerTypeAdapter(OffsetDateTime.class, new JSON.OffsetDateTimeTypeAdapter())
            .create());
  }
}
