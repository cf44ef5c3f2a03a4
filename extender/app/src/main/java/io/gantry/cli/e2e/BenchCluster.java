package io.gantry.cli.e2e;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gantry.fakekube.FakeKubeServer;
import io.gantry.fakekube.Json;
import io.gantry.fakekube.ResourceKind;
import io.gantry.fakekube.ResourceKinds;
import io.gantry.fakekube.ResourceStore;
import io.gantry.kubemodel.kai.GpuSharingAnnotations;
import io.gantry.scheduler.kube.config.SchedulerSettings;
import io.gantry.scheduler.kube.crd.KaiPodGroup;
import io.gantry.scheduler.kube.crd.KaiQueue;
import io.gantry.scheduler.kube.snapshot.PodFacts;
import java.util.ArrayList;
import java.util.List;

/**
 * Fills a fake API server with an {@link E2eWorkload}: the KAI queues, the nodes, then one PodGroup
 * per job (as KAI's pod grouper would have made them) and the pending pods, written straight into
 * the store so that the server's request counts hold the scheduler's requests only.
 */
final class BenchCluster {
  static final ResourceKind QUEUES =
      ResourceKinds.crd(KaiQueue.GROUP, KaiQueue.VERSION, KaiQueue.PLURAL, "Queue", false);
  static final ResourceKind POD_GROUPS =
      ResourceKinds.crd(
          KaiPodGroup.GROUP, KaiPodGroup.VERSION, KaiPodGroup.PLURAL, "PodGroup", true);

  private BenchCluster() {}

  /** A pod created, and when ({@link System#nanoTime}). */
  record CreatedPod(String name, long createdNanos) {}

  /** Creates everything; returns the pods in the order they were created. */
  static List<CreatedPod> populate(FakeKubeServer kube, E2eWorkload workload) {
    kube.registry().register(QUEUES);
    kube.registry().register(POD_GROUPS);
    ResourceStore store = kube.store();
    store.create(QUEUES, "", queue("root", null));
    for (int q = 0; q < E2eWorkload.QUEUES; q++) {
      store.create(QUEUES, "", queue(queueName(q), "root"));
    }
    for (int n = 0; n < workload.nodes(); n++) {
      store.create(ResourceKinds.NODES, "", node(n));
    }
    List<CreatedPod> pods = new ArrayList<>(workload.pods());
    for (int b = 0; b < workload.blocks(); b++) {
      String queue = queueName(b % E2eWorkload.QUEUES);
      String gang = "gang-" + b;
      store.create(POD_GROUPS, E2eWorkload.NAMESPACE, podGroup(gang, queue, E2eWorkload.GANG_SIZE));
      for (int p = 0; p < E2eWorkload.GANG_SIZE; p++) {
        pods.add(create(store, pod(gang + "-" + p, gang, false)));
      }
      for (int p = 0; p < E2eWorkload.SINGLES_PER_BLOCK; p++) {
        String job = "single-" + b + "-" + p;
        store.create(POD_GROUPS, E2eWorkload.NAMESPACE, podGroup(job, queue, 1));
        pods.add(create(store, pod(job, job, false)));
      }
      for (int p = 0; p < E2eWorkload.FRACTIONS_PER_BLOCK; p++) {
        String job = "fraction-" + b + "-" + p;
        store.create(POD_GROUPS, E2eWorkload.NAMESPACE, podGroup(job, queue, 1));
        pods.add(create(store, pod(job, job, true)));
      }
    }
    return pods;
  }

  /**
   * Creates the queues, {@code nodes} nodes and {@code podsPerNode} running pods on each, each pod
   * in a PodGroup of its own: 1-GPU pods while the node's GPUs last, then CPU-only pods.
   */
  static void populateRunning(FakeKubeServer kube, int nodes, int podsPerNode) {
    kube.registry().register(QUEUES);
    kube.registry().register(POD_GROUPS);
    ResourceStore store = kube.store();
    store.create(QUEUES, "", queue("root", null));
    for (int q = 0; q < E2eWorkload.QUEUES; q++) {
      store.create(QUEUES, "", queue(queueName(q), "root"));
    }
    for (int n = 0; n < nodes; n++) {
      ObjectNode node = node(n);
      String nodeName = node.path("metadata").path("name").asText();
      store.create(ResourceKinds.NODES, "", node);
      for (int p = 0; p < podsPerNode; p++) {
        String job = "running-" + n + "-" + p;
        store.create(
            POD_GROUPS, E2eWorkload.NAMESPACE, podGroup(job, queueName(p % E2eWorkload.QUEUES), 1));
        ObjectNode pod = pod(job, job, false);
        if (p >= E2eWorkload.GPUS_PER_NODE) {
          ObjectNode resources =
              (ObjectNode) pod.path("spec").path("containers").get(0).path("resources");
          ((ObjectNode) resources.path("requests")).remove("nvidia.com/gpu");
          resources.remove("limits");
        }
        ((ObjectNode) pod.path("spec")).put("nodeName", nodeName);
        ObjectNode created = store.create(ResourceKinds.PODS, E2eWorkload.NAMESPACE, pod);
        created.putObject("status").put("phase", "Running");
        store.updateStatus(ResourceKinds.PODS, E2eWorkload.NAMESPACE, job, created);
      }
    }
  }

  static String queueName(int q) {
    return "team-" + q;
  }

  private static CreatedPod create(ResourceStore store, ObjectNode pod) {
    store.create(ResourceKinds.PODS, E2eWorkload.NAMESPACE, pod);
    return new CreatedPod(pod.path("metadata").path("name").asText(), System.nanoTime());
  }

  private static ObjectNode queue(String name, String parent) {
    ObjectNode q = Json.object();
    q.put("apiVersion", QUEUES.apiVersion());
    q.put("kind", QUEUES.kind());
    q.putObject("metadata").put("name", name);
    ObjectNode spec = q.putObject("spec");
    if (parent != null) {
      spec.put("parentQueue", parent);
    }
    ObjectNode resources = spec.putObject("resources");
    for (String resource : new String[] {"gpu", "cpu", "memory"}) {
      resources.putObject(resource).put("quota", -1).put("overQuotaWeight", 1).put("limit", -1);
    }
    return q;
  }

  /** The name of the {@code n}th node {@link #populate} creates. */
  static String nodeName(int n) {
    return String.format("node-%05d", n);
  }

  /** A Ready node whose allocatable is its capacity, as the fake kubelet registers one. */
  private static ObjectNode node(int n) {
    String name = nodeName(n);
    ObjectNode node = Json.object();
    node.put("apiVersion", "v1");
    node.put("kind", "Node");
    ObjectNode meta = node.putObject("metadata");
    meta.put("name", name);
    meta.putObject("labels").put("kubernetes.io/hostname", name);
    node.putObject("spec");
    ObjectNode status = node.putObject("status");
    ObjectNode capacity = status.putObject("capacity");
    capacity
        .put("cpu", "128")
        .put("memory", "1Ti")
        .put("pods", "110")
        .put("nvidia.com/gpu", Integer.toString(E2eWorkload.GPUS_PER_NODE));
    status.set("allocatable", capacity.deepCopy());
    status
        .putArray("conditions")
        .addObject()
        .put("type", "Ready")
        .put("status", "True")
        .put("reason", "KubeletReady");
    return node;
  }

  private static ObjectNode podGroup(String name, String queue, int minMember) {
    ObjectNode pg = Json.object();
    pg.put("apiVersion", POD_GROUPS.apiVersion());
    pg.put("kind", POD_GROUPS.kind());
    pg.putObject("metadata").put("name", name).put("namespace", E2eWorkload.NAMESPACE);
    pg.putObject("spec").put("queue", queue).put("minMember", minMember);
    return pg;
  }

  /** A pod of job {@code group}: one whole GPU, or a GPU fraction asked by annotation. */
  private static ObjectNode pod(String name, String group, boolean fraction) {
    ObjectNode pod = Json.object();
    pod.put("apiVersion", "v1");
    pod.put("kind", "Pod");
    ObjectNode meta = pod.putObject("metadata");
    meta.put("name", name).put("namespace", E2eWorkload.NAMESPACE);
    ObjectNode annotations = meta.putObject("annotations");
    annotations.put(PodFacts.POD_GROUP_ANNOTATION, group);
    if (fraction) {
      annotations.put(GpuSharingAnnotations.GPU_FRACTION, E2eWorkload.FRACTION);
    }
    ObjectNode spec = pod.putObject("spec");
    spec.put("schedulerName", SchedulerSettings.DEFAULT_SCHEDULER_NAME);
    ObjectNode requests =
        spec.putArray("containers")
            .addObject()
            .put("name", "main")
            .put("image", "busybox")
            .putObject("resources")
            .putObject("requests");
    requests.put("cpu", "1").put("memory", "1Gi");
    if (!fraction) {
      requests.put("nvidia.com/gpu", "1");
      ((ObjectNode) spec.path("containers").get(0).path("resources"))
          .putObject("limits")
          .put("nvidia.com/gpu", "1");
    }
    return pod;
  }
}
