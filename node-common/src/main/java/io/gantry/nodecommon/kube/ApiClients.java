package io.gantry.nodecommon.kube;

import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesTypeAdaptorFactory;
import java.io.IOException;
import java.time.OffsetDateTime;

/**
 * Every Gantry command's client-java {@link ApiClient}, found as kubectl finds its configuration
 * ({@link KubeconfigLocator}, {@link KubeconfigFiles}). Installs the relaxed JSON of protocols.md
 * §7.1 first: client-java 27's generated models reject fields they do not know (a newer API server
 * adds some) and a pod watch BOOKMARK ({@code "containers": null}) fails the informer and forces a
 * full relist. The Gson is a static of {@link JSON}, so this holds for the whole JVM.
 */
public final class ApiClients {
  private ApiClients() {}

  /**
   * A client for {@code access}: its kubeconfig, else kubectl's defaults, else the in-cluster
   * service account; on its context, else the configuration's current one. Does not contact the
   * server ({@link ApiServerProbe} does).
   *
   * @throws IOException in one line: nothing found (naming what was tried), or a file that cannot
   *     be read or is not a kubeconfig (naming the file), or an unknown context
   */
  public static ApiClient connect(ClusterAccess access) throws IOException {
    return connect(KubeconfigLocator.ofThisProcess().locate(access.kubeconfig()), access);
  }

  /** A client for the configuration at {@code location}, on {@code access}'s context. */
  public static ApiClient connect(KubeconfigLocator.Location location, ClusterAccess access)
      throws IOException {
    installRelaxedJson();
    if (location.files().isEmpty()) {
      if (access.context().isPresent()) {
        throw new IOException(
            "--context " + access.context().get() + " needs a kubeconfig; none was found");
      }
      return ClientBuilder.cluster().build();
    }
    return ClientBuilder.kubeconfig(KubeconfigFiles.load(location.files(), access.context()))
        .build();
  }

  /** A client for a plain URL, such as the fake API server of the tests. */
  public static ApiClient forUrl(String url) {
    installRelaxedJson();
    return new ApiClient().setBasePath(url);
  }

  /** Replaces client-java's strict Gson with one that ignores unknown fields. Idempotent. */
  public static void installRelaxedJson() {
    JSON.setGson(
        JSON.createGson()
            // each distinct timestamp and quantity text parsed once (the informers' lists and
            // watches decode the same few thousand again and again)
            .registerTypeAdapter(OffsetDateTime.class, RepeatedValueAdapters.timestamps())
            .registerTypeAdapter(Quantity.class, RepeatedValueAdapters.quantities())
            // what DynamicKubernetesApi installs; a later call must not take it away again
            .registerTypeAdapterFactory(new DynamicKubernetesTypeAdaptorFactory())
            .create());
  }
}
