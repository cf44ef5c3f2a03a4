package io.gantry.scheduler.kube.informers;

import io.gantry.scheduler.kube.KubeClients;
import io.gantry.scheduler.kube.crd.KaiPodGroup;
import io.gantry.scheduler.kube.crd.KaiPodGroupList;
import io.gantry.scheduler.kube.crd.KaiQueue;
import io.gantry.scheduler.kube.crd.KaiQueueList;
import io.gantry.scheduler.kube.crd.KaiTopology;
import io.gantry.scheduler.kube.crd.KaiTopologyList;
import io.gantry.scheduler.kube.snapshot.PodFacts;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.informer.cache.Lister;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.SchedulingV1Api;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeList;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodList;
import io.kubernetes.client.openapi.models.V1PriorityClass;
import io.kubernetes.client.openapi.models.V1PriorityClassList;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The scheduler's view of the cluster: one informer each for Pods (all namespaces, not finished,
 * asking for watch bookmarks, which need {@link KubeClients#installRelaxedJson()}), Nodes,
 * PriorityClasses, and KAI's Queues, PodGroups and Topologies, each CRD with its own model class;
 * and the {@code resource.k8s.io/v1} objects ({@link DraInformers}). client-java's reflector
 * relists after a dropped watch or a {@code 410 Gone}; the caches are what every cycle's snapshot
 * is built from.
 */
public final class ClusterInformers implements ClusterObjects, AutoCloseable {
  /** Pods that still hold or want resources; finished ones leave the cache as DELETED. */
  static final String LIVE_PODS = "status.phase!=Succeeded,status.phase!=Failed";

  private final ApiClient client;
  private final ExecutorService threads;
  private final ListWatchFailures failures;
  private final SharedInformerFactory factory;
  private final SharedInformerFactory topologyFactory;
  private final SharedIndexInformer<V1Pod> pods;
  private final SharedIndexInformer<V1Node> nodes;
  private final SharedIndexInformer<V1PriorityClass> priorityClasses;
  private final SharedIndexInformer<KaiQueue> queues;
  private final SharedIndexInformer<KaiPodGroup> podGroups;
  private final SharedIndexInformer<KaiTopology> topologies;
  private final DraInformers dra;
  private volatile OptionalApis served = OptionalApis.ALL;

  public ClusterInformers(ApiClient client) {
    this.client = client;
    this.threads =
        Executors.newCachedThreadPool(
            r -> {
              Thread t = new Thread(r, "gantry-informer");
              t.setDaemon(true);
              return t;
            });
    this.failures = new ListWatchFailures(client.getBasePath());
    this.factory = new SharedInformerFactory(client, threads, false);
    // in a factory of its own: started only when the API server serves the Topology CRD
    this.topologyFactory = new SharedInformerFactory(client, threads, false);
    CoreV1Api core = new CoreV1Api(client);
    this.pods =
        factory.sharedIndexInformerFor(
            params ->
                core.listPodForAllNamespaces()
                    .fieldSelector(LIVE_PODS)
                    .allowWatchBookmarks(true)
                    .resourceVersion(params.resourceVersion)
                    .watch(params.watch)
                    .timeoutSeconds(params.timeoutSeconds)
                    .buildCall(null),
            V1Pod.class,
            V1PodList.class,
            0,
            failures.handler("pods"));
    pods.addIndexers(PodUidIndex.indexers());
    // the pod and PodGroup caches are most of the heap at scale: keep them compact
    CompactModels compact = new CompactModels();
    pods.setTransform(o -> o instanceof V1Pod pod ? compact.pod(pod) : o);
    this.nodes =
        factory.sharedIndexInformerFor(
            params ->
                core.listNode()
                    .resourceVersion(params.resourceVersion)
                    .watch(params.watch)
                    .timeoutSeconds(params.timeoutSeconds)
                    .buildCall(null),
            V1Node.class,
            V1NodeList.class,
            0,
            failures.handler("nodes"));
    SchedulingV1Api scheduling = new SchedulingV1Api(client);
    this.priorityClasses =
        factory.sharedIndexInformerFor(
            params ->
                scheduling
                    .listPriorityClass()
                    .resourceVersion(params.resourceVersion)
                    .watch(params.watch)
                    .timeoutSeconds(params.timeoutSeconds)
                    .buildCall(null),
            V1PriorityClass.class,
            V1PriorityClassList.class,
            0,
            failures.handler("priorityclasses.scheduling.k8s.io"));
    this.queues =
        factory.sharedIndexInformerFor(
            new GenericKubernetesApi<>(
                KaiQueue.class,
                KaiQueueList.class,
                KaiQueue.GROUP,
                KaiQueue.VERSION,
                KaiQueue.PLURAL,
                client),
            KaiQueue.class,
            0,
            "",
            failures.handler(KaiQueue.PLURAL + "." + KaiQueue.GROUP));
    this.podGroups =
        factory.sharedIndexInformerFor(
            new GenericKubernetesApi<>(
                KaiPodGroup.class,
                KaiPodGroupList.class,
                KaiPodGroup.GROUP,
                KaiPodGroup.VERSION,
                KaiPodGroup.PLURAL,
                client),
            KaiPodGroup.class,
            0,
            "",
            failures.handler(KaiPodGroup.PLURAL + "." + KaiPodGroup.GROUP));
    podGroups.setTransform(o -> o instanceof KaiPodGroup pg ? compact.podGroup(pg) : o);
    this.topologies =
        topologyFactory.sharedIndexInformerFor(
            new GenericKubernetesApi<>(
                KaiTopology.class,
                KaiTopologyList.class,
                KaiTopology.GROUP,
                KaiTopology.VERSION,
                KaiTopology.PLURAL,
                client),
            KaiTopology.class,
            0,
            "",
            failures.handler(KaiTopology.PLURAL + "." + KaiTopology.GROUP));
    this.dra = new DraInformers(client, threads, failures);
  }

  /**
   * A cache of pod owners of any kind the API serves, started kind by kind as pods name them, on
   * this view's threads; the caller closes it.
   */
  public OwnerCache owners(Clock clock) {
    return new OwnerCache(client, threads, failures, clock);
  }

  /**
   * Asks the API server which optional APIs it serves ({@link OptionalApis}, logged once), then
   * starts the informers of the APIs it serves.
   */
  public void start() {
    served = OptionalApis.discover(client);
    factory.startAllRegisteredInformers();
    if (served.topologies()) {
      topologyFactory.startAllRegisteredInformers();
    }
    if (served.dra()) {
      dra.start();
    }
  }

  /** The optional APIs the server serves (all of them until {@link #start()} asked). */
  public OptionalApis served() {
    return served;
  }

  /**
   * Every informer has listed once; the Topology informer counts only when its CRD is served
   * (without it there are no topologies).
   */
  public boolean hasSynced() {
    return pods.hasSynced()
        && nodes.hasSynced()
        && priorityClasses.hasSynced()
        && queues.hasSynced()
        && podGroups.hasSynced()
        && (topologies.hasSynced() || !served.topologies());
  }

  /** The DRA caches, which sync on their own ({@link DraInformers}). */
  @Override
  public DraInformers dra() {
    return dra;
  }

  @Override
  public List<V1Pod> pods() {
    return pods.getIndexer().list();
  }

  /**
   * The cached pod of this key ({@code namespace/name}, {@link PodFacts#key}), or null: the cache's
   * own key, so a lookup builds no string.
   */
  @Override
  public V1Pod pod(String key) {
    return pods.getIndexer().getByKey(key);
  }

  /** The key ({@code namespace/name}) of the cached pod with this UID, found by index. */
  public Optional<String> podKeyOfUid(String uid) {
    return PodUidIndex.podKey(pods.getIndexer(), uid);
  }

  @Override
  public List<V1Node> nodes() {
    return nodes.getIndexer().list();
  }

  /** The cached node, or null. */
  public V1Node node(String name) {
    return new Lister<V1Node>(nodes.getIndexer()).get(name);
  }

  @Override
  public List<V1PriorityClass> priorityClasses() {
    return priorityClasses.getIndexer().list();
  }

  @Override
  public List<KaiQueue> queues() {
    return queues.getIndexer().list();
  }

  /** The cached Queue, or null. */
  public KaiQueue queue(String name) {
    return new Lister<KaiQueue>(queues.getIndexer()).get(name);
  }

  @Override
  public List<KaiPodGroup> podGroups() {
    return podGroups.getIndexer().list();
  }

  /** The cached PodGroup, or null. */
  @Override
  public KaiPodGroup podGroup(String namespace, String name) {
    return new Lister<KaiPodGroup>(podGroups.getIndexer()).namespace(namespace).get(name);
  }

  @Override
  public List<KaiTopology> topologies() {
    return topologies.getIndexer().list();
  }

  @Override
  public void close() {
    // from here on a failed call is the stop itself, not news
    failures.close();
    dra.stop();
    topologyFactory.stopAllRegisteredInformers(false);
    factory.stopAllRegisteredInformers(true);
    threads.shutdownNow();
  }
}
