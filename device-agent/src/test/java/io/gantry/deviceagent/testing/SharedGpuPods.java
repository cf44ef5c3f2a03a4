package io.gantry.deviceagent.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gantry.fakekube.FakeKubeServer;
import io.gantry.fakekube.ResourceKinds;
import io.gantry.gpusharing.AssignedGpu;
import io.gantry.gpusharing.ComputeMode;
import io.gantry.gpusharing.GpuAllocation;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.gpusharing.json.GpuAllocationJson;
import io.gantry.nodecommon.testing.Fixtures;
import io.gantry.proto.nodeagent.v1.NodeAgentProto.EnforcementAction;
import io.gantry.proto.nodeagent.v1.NodeAgentProto.EnforcementEvent;
import io.gantry.proto.nodeagent.v1.NodeAgentProto.SharingMechanism;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Pods sharing the H100 of the compute-apps capture ({@link Fixtures#COMPUTE_APPS_H100}) on node
 * gpu-0 of a fake API server, and a fake /proc that places the capture's processes in them: the
 * usage watch's input without a GPU.
 */
public final class SharedGpuPods {
  /** The GPU of the capture. */
  public static final String H100 = "GPU-00000000-0000-0000-0000-000000000000";

  /** Its memory. */
  public static final long H100_MIB = 81559;

  /** The arguments of nvidia-smi's GPU process query. */
  public static final String COMPUTE_APPS_QUERY =
      "--query-compute-apps=gpu_uuid,pid,used_gpu_memory --format=csv";

  private static final ObjectMapper JSON = new ObjectMapper();

  private SharedGpuPods() {}

  /**
   * A running pod {@code name} on gpu-0 holding {@code hundredths} of the H100, time-sliced;
   * returns its UID.
   */
  public static String sharingPod(FakeKubeServer kube, String name, int hundredths) {
    return sharingPod(
        kube, name, hundredths, ComputeMode.TIME_SLICING, new AssignedGpu(0, H100, H100_MIB));
  }

  /**
   * A running pod {@code name} on gpu-0 holding {@code hundredths} of {@code device} in {@code
   * mode}, its allocation resolved as the binder writes it in reservation-pods mode; returns its
   * UID.
   */
  public static String sharingPod(
      FakeKubeServer kube, String name, int hundredths, ComputeMode mode, AssignedGpu device) {
    GpuAllocation allocation =
        GpuAllocation.shared(
                "gpu-0",
                GpuAmount.ofHundredths(hundredths),
                mode,
                List.of("gpu-0-gpu" + device.index()))
            .withDevices(List.of(device));
    ObjectNode pod = JSON.createObjectNode();
    pod.put("apiVersion", "v1").put("kind", "Pod");
    ObjectNode meta = pod.putObject("metadata").put("name", name).put("namespace", "default");
    meta.putObject("annotations")
        .put(GpuAllocation.ANNOTATION, GpuAllocationJson.write(allocation));
    pod.putObject("spec").putArray("containers").addObject().put("name", "main");
    kube.store().create(pod);
    bindToGpu0(kube, name);
    return kube.store()
        .get(ResourceKinds.PODS, "default", name)
        .orElseThrow()
        .path("metadata")
        .path("uid")
        .asText();
  }

  /** Binds pod {@code name} of namespace default to node gpu-0. */
  public static void bindToGpu0(FakeKubeServer kube, String name) {
    kube.store()
        .bind(
            "default",
            name,
            (ObjectNode)
                JSON.createObjectNode()
                    .set("target", JSON.createObjectNode().put("name", "gpu-0")));
  }

  /**
   * The event the usage watch raises for pod {@code podB} of {@link #proc} holding 0.05 of the
   * H100: 7484 MiB used over its grant of 4077 MiB.
   */
  public static EnforcementEvent podBOverItsGrant(String podB) {
    return EnforcementEvent.newBuilder()
        .setPodNamespace("default")
        .setPodName("b")
        .setPodUid(podB)
        .setGpuUuid(H100)
        .setMechanism(SharingMechanism.SHARING_MECHANISM_HAMI_CORE)
        .setAction(EnforcementAction.ENFORCEMENT_ACTION_LIMIT_EXCEEDED)
        .setMemoryLimitMib(4077)
        .setMemoryUsedMib(7484)
        .setMessage(
            "pod default/b uses 7484 MiB of GPU " + H100 + " memory, over its grant of 4077 MiB")
        .build();
  }

  /**
   * A fake /proc under {@code dir} in which the capture's processes 21180 and 21181 (3568 MiB in
   * all) belong to pod {@code podA} and 21198 (7484 MiB) to pod {@code podB}; returns its root.
   */
  public static Path proc(Path dir, String podA, String podB) throws IOException {
    Path proc = Files.createDirectories(dir.resolve("proc"));
    cgroup(proc, 21180, podA);
    cgroup(proc, 21181, podA);
    cgroup(proc, 21198, podB);
    return proc;
  }

  private static void cgroup(Path proc, long pid, String podUid) throws IOException {
    Files.writeString(
        Files.createDirectories(proc.resolve(Long.toString(pid))).resolve("cgroup"),
        "0::/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod"
            + podUid.replace('-', '_')
            + ".slice/cri-containerd-1.scope\n");
  }
}
