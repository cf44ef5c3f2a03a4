package io.gantry.scheduler.kube;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gantry.fakekube.FakeKubeServer;
import io.gantry.fakekube.FakeNode;
import io.gantry.fakekube.Json;
import io.gantry.fakekube.ResourceKinds;
import io.gantry.gpusharing.inventory.DomainSource;
import io.gantry.gpusharing.inventory.GpuDevice;
import io.gantry.gpusharing.inventory.GpuHealth;
import io.gantry.gpusharing.inventory.GpuInventory;
import io.gantry.gpusharing.inventory.MigMode;
import io.gantry.gpusharing.inventory.NvlinkDomain;
import io.gantry.gpusharing.inventory.json.InventoryAnnotation;
import io.gantry.scheduler.kube.snapshot.PodFacts;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/** Kubernetes objects for tests, as JSON trees the fake API server stores. */
public final class TestObjects {
  public static final String SCHEDULER = "gantry-scheduler";

  private TestObjects() {}

  /**
   * The device agent's {@code gantry.io/gpu-inventory} annotation for {@code count} H100 GPUs,
   * {@code unhealthy} among them, in the NVLink {@code domains}.
   */
  public static String gpuInventory(
      int count, List<Integer> unhealthy, List<List<Integer>> domains) {
    List<GpuDevice> devices = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      devices.add(
          new GpuDevice(
              i,
              String.format("GPU-%08d-0000-0000-0000-000000000000", i),
              String.format("00000000:%02X:00.0", i + 1),
              "NVIDIA H100 80GB HBM3",
              81559,
              MigMode.DISABLED,
              List.of(),
              OptionalInt.empty(),
              unhealthy.contains(i)
                  ? GpuHealth.fromReasons(List.of("XID 79: the GPU has fallen off the bus"))
                  : GpuHealth.HEALTHY,
              Optional.empty()));
    }
    List<NvlinkDomain> nvlink = new ArrayList<>();
    for (int d = 0; d < domains.size(); d++) {
      nvlink.add(
          new NvlinkDomain(
              "nvlink-" + d,
              domains.get(d),
              true,
              Optional.empty(),
              List.of(DomainSource.LINK_MATRIX)));
    }
    return new InventoryAnnotation(
            new GpuInventory("550.54.15", Optional.of("12.4"), devices, false, List.of(), nvlink))
        .toJson();
  }

  public static FakeNode gpuNode(String name, int gpus) {
    return FakeNode.of(
        name,
        Map.of(
            "cpu",
            "64",
            "memory",
            "512Gi",
            "nvidia.com/gpu",
            Integer.toString(gpus),
            "pods",
            "110"),
        Map.of("nvidia.com/gpu.memory", "81920"));
  }

  /** A queue with the given GPU quota and unlimited CPU and memory, weight 1 everywhere. */
  public static ObjectNode queue(String name, String parent, double gpuQuota) {
    ObjectNode q = Json.object();
    q.put("apiVersion", "scheduling.run.ai/v2");
    q.put("kind", "Queue");
    q.putObject("metadata").put("name", name);
    ObjectNode spec = q.putObject("spec");
    if (parent != null) {
      spec.put("parentQueue", parent);
    }
    ObjectNode resources = spec.putObject("resources");
    resources.putObject("gpu").put("quota", gpuQuota).put("overQuotaWeight", 1).put("limit", -1);
    resources.putObject("cpu").put("quota", -1).put("overQuotaWeight", 1).put("limit", -1);
    resources.putObject("memory").put("quota", -1).put("overQuotaWeight", 1).put("limit", -1);
    return q;
  }

  public static ObjectNode podGroup(String namespace, String name, String queue, int minMember) {
    ObjectNode pg = Json.object();
    pg.put("apiVersion", "scheduling.run.ai/v2alpha2");
    pg.put("kind", "PodGroup");
    pg.putObject("metadata").put("name", name).put("namespace", namespace);
    pg.putObject("spec").put("queue", queue).put("minMember", minMember);
    return pg;
  }

  public static ObjectNode priorityClass(String name, int value) {
    ObjectNode pc = Json.object();
    pc.put("apiVersion", "scheduling.k8s.io/v1");
    pc.put("kind", "PriorityClass");
    pc.putObject("metadata").put("name", name);
    pc.put("value", value);
    return pc;
  }

  /** A pod of the given scheduler asking for CPU, memory and whole GPUs. */
  public static ObjectNode pod(
      String namespace, String name, String scheduler, String cpu, int gpus) {
    ObjectNode pod = Json.object();
    pod.put("apiVersion", "v1");
    pod.put("kind", "Pod");
    pod.putObject("metadata").put("name", name).put("namespace", namespace);
    ObjectNode spec = pod.putObject("spec");
    spec.put("schedulerName", scheduler);
    ArrayNode containers = spec.putArray("containers");
    ObjectNode c = containers.addObject().put("name", "main").put("image", "busybox");
    ObjectNode requests = c.putObject("resources").putObject("requests");
    requests.put("cpu", cpu).put("memory", "1Gi");
    if (gpus > 0) {
      requests.put("nvidia.com/gpu", Integer.toString(gpus));
      ((ObjectNode) c.get("resources"))
          .putObject("limits")
          .put("nvidia.com/gpu", Integer.toString(gpus));
    }
    return pod;
  }

  public static ObjectNode inGroup(ObjectNode pod, String podGroup) {
    annotations(pod).put(PodFacts.POD_GROUP_ANNOTATION, podGroup);
    return pod;
  }

  public static ObjectNode labelled(ObjectNode object, String key, String value) {
    ObjectNode meta = (ObjectNode) object.get("metadata");
    (meta.has("labels") ? (ObjectNode) meta.get("labels") : meta.putObject("labels"))
        .put(key, value);
    return object;
  }

  public static ObjectNode annotations(ObjectNode object) {
    ObjectNode meta = (ObjectNode) object.get("metadata");
    return meta.has("annotations")
        ? (ObjectNode) meta.get("annotations")
        : meta.putObject("annotations");
  }

  public static ObjectNode onNode(ObjectNode pod, String node) {
    ((ObjectNode) pod.get("spec")).put("nodeName", node);
    return pod;
  }

  /** Creates KAI's default queue tree: default-parent-queue and default-queue, both unlimited. */
  public static void defaultQueues(FakeKubeServer kube) {
    kube.store().create(queue("default-parent-queue", null, 0));
    kube.store().create(queue("default-queue", "default-parent-queue", 0));
  }

  public static void create(FakeKubeServer kube, ObjectNode object) {
    if (object.path("kind").asText().equals("Pod")) {
      kube.store()
          .create(ResourceKinds.PODS, object.path("metadata").path("namespace").asText(), object);
    } else {
      kube.store().create(object);
    }
  }
}
