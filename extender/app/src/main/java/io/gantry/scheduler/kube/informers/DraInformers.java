package io.gantry.scheduler.kube.informers;

import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.informer.cache.Lister;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;

/**
 * The {@code resource.k8s.io/v1} caches: DeviceClasses, ResourceSlices, ResourceClaims and
 * ResourceClaimTemplates, kept as the JSON the API server sent ({@link DynamicKubernetesObject}),
 * since the engine's values are read from that JSON by the simulator's rules ({@link
 * io.gantry.kubemodel.dra.DraManifests}) and client-java's models would add empty lists the server
 * never sent. They are not part of {@link ClusterInformers#hasSynced()}: on an API server without
 * {@code resource.k8s.io/v1} they are not started ({@link OptionalApis}) and never sync, and only
 * pods with claims wait for them.
 */
public final class DraInformers implements DraObjects {
  public static final String GROUP = "resource.k8s.io";
  public static final String VERSION = "v1";

  private final List<SharedInformerFactory> factories = new ArrayList<>();
  private final SharedIndexInformer<DynamicKubernetesObject> deviceClasses;
  private final SharedIndexInformer<DynamicKubernetesObject> slices;
  private final SharedIndexInformer<DynamicKubernetesObject> claims;
  private final SharedIndexInformer<DynamicKubernetesObject> templates;

  DraInformers(ApiClient client, ExecutorService threads, ListWatchFailures failures) {
    this.deviceClasses = informer(client, threads, failures, "deviceclasses");
    this.slices = informer(client, threads, failures, "resourceslices");
    this.claims = informer(client, threads, failures, "resourceclaims");
    this.templates = informer(client, threads, failures, "resourceclaimtemplates");
  }

  /**
   * An informer in a factory of its own: a factory keeps one informer per model class, and all four
   * kinds share {@link DynamicKubernetesObject}.
   */
  private SharedIndexInformer<DynamicKubernetesObject> informer(
      ApiClient client, ExecutorService threads, ListWatchFailures failures, String plural) {
    SharedInformerFactory factory = new SharedInformerFactory(client, threads, false);
    factories.add(factory);
    return factory.sharedIndexInformerFor(
        new DynamicKubernetesApi(GROUP, VERSION, plural, client),
        DynamicKubernetesObject.class,
        0,
        "",
        failures.handler(plural + "." + GROUP));
  }

  void start() {
    factories.forEach(SharedInformerFactory::startAllRegisteredInformers);
  }

  void stop() {
    factories.forEach(f -> f.stopAllRegisteredInformers(false));
  }

  /** Every DRA cache has listed once. */
  @Override
  public boolean hasSynced() {
    return deviceClasses.hasSynced()
        && slices.hasSynced()
        && claims.hasSynced()
        && templates.hasSynced();
  }

  @Override
  public List<DynamicKubernetesObject> deviceClasses() {
    return deviceClasses.getIndexer().list();
  }

  @Override
  public List<DynamicKubernetesObject> slices() {
    return slices.getIndexer().list();
  }

  @Override
  public List<DynamicKubernetesObject> claims() {
    return claims.getIndexer().list();
  }

  @Override
  public List<DynamicKubernetesObject> templates() {
    return templates.getIndexer().list();
  }

  /** The cached claim, or null. */
  public DynamicKubernetesObject claim(String namespace, String name) {
    return new Lister<DynamicKubernetesObject>(claims.getIndexer()).namespace(namespace).get(name);
  }
}
