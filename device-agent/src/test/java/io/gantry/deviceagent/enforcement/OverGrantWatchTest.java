package io.gantry.deviceagent.enforcement;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gantry.deviceagent.kube.ApiClients;
import io.gantry.deviceagent.kube.NodePods;
import io.gantry.deviceagent.kube.PodEnforcer;
import io.gantry.deviceagent.nvidiasmi.NvidiaSmi;
import io.gantry.deviceagent.testing.FakeNvidiaSmi;
import io.gantry.deviceagent.testing.Fixtures;
import io.gantry.fakekube.FakeKubeServer;
import io.gantry.fakekube.ResourceKinds;
import io.gantry.gpusharing.AssignedGpu;
import io.gantry.gpusharing.ComputeMode;
import io.gantry.gpusharing.GpuAllocation;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.gpusharing.json.GpuAllocationJson;
import io.kubernetes.client.openapi.ApiClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The usage watch end to end: the fake API server holds pods with resolved shared allocations, a
 * fake nvidia-smi replays the H100 capture's processes under load, a fake /proc places them in the
 * pods.
 */
class OverGrantWatchTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String H100 = "GPU-00000000-0000-0000-0000-000000000000";
  private static final long H100_MIB = 81559;

  @TempDir Path tmp;

  private final FakeKubeServer kube = FakeKubeServer.start();
  private final ApiClient client = ApiClients.forUrl(kube.url());

  @AfterEach
  void stop() {
    kube.close();
  }

  /** A running pod on gpu-0 holding {@code hundredths} of the H100; returns its UID. */
  private String sharingPod(String name, int hundredths) {
    GpuAllocation allocation =
        GpuAllocation.shared(
                "gpu-0",
                GpuAmount.ofHundredths(hundredths),
                ComputeMode.TIME_SLICING,
                List.of("gpu-0-gpu0"))
            .withDevices(List.of(new AssignedGpu(0, H100, H100_MIB)));
    ObjectNode pod = JSON.createObjectNode();
    pod.put("apiVersion", "v1").put("kind", "Pod");
    ObjectNode meta = pod.putObject("metadata").put("name", name).put("namespace", "default");
    meta.putObject("annotations")
        .put(GpuAllocation.ANNOTATION, GpuAllocationJson.write(allocation));
    pod.putObject("spec").putArray("containers").addObject().put("name", "main");
    kube.store().create(pod);
    kube.store()
        .bind(
            "default",
            name,
            (ObjectNode)
                JSON.createObjectNode()
                    .set("target", JSON.createObjectNode().put("name", "gpu-0")));
    return kube.store()
        .get(ResourceKinds.PODS, "default", name)
        .orElseThrow()
        .path("metadata")
        .path("uid")
        .asText();
  }

  private OverGrantWatch watch(String podA, String podB, boolean evict) throws Exception {
    Path proc = Files.createDirectories(tmp.resolve("proc"));
    cgroup(proc, 21180, podA);
    cgroup(proc, 21181, podA);
    cgroup(proc, 21198, podB);
    Path smi =
        FakeNvidiaSmi.in(Files.createDirectories(tmp.resolve("bin")))
            .answer(
                "--query-compute-apps=gpu_uuid,pid,used_gpu_memory --format=csv",
                Fixtures.read(Fixtures.COMPUTE_APPS_H100))
            .install();
    return new OverGrantWatch(
        new GpuUsageReader(
            NvidiaSmi.locate(smi.toString(), "", Duration.ofSeconds(10)), new PodCgroups(proc)),
        new NodePods(client, "gpu-0"),
        new PodEnforcer(client, "gpu-0", Clock.systemUTC()),
        evict);
  }

  private static void cgroup(Path proc, long pid, String podUid) throws Exception {
    Files.writeString(
        Files.createDirectories(proc.resolve(Long.toString(pid))).resolve("cgroup"),
        "0::/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod"
            + podUid.replace('-', '_')
            + ".slice/cri-containerd-1.scope\n");
  }

  private List<JsonNode> events() {
    return kube.store().list(ResourceKinds.EVENTS, "default").stream()
        .map(JsonNode.class::cast)
        .toList();
  }

  @Test
  void aPodOverItsGrantGetsOneWarningEventAndAPodUnderItNone() throws Exception {
    // a: 2296 + 1272 = 3568 MiB used, 0.05 of 81559 = 4077 MiB granted; b: 7484 MiB used, 4077.
    String a = sharingPod("a", 5);
    String b = sharingPod("b", 5);
    OverGrantWatch watch = watch(a, b, false);

    watch.runOnce();
    watch.runOnce();

    assertThat(events())
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.path("type").asText()).isEqualTo("Warning");
              assertThat(e.path("reason").asText()).isEqualTo("GpuMemoryOverGrant");
              assertThat(e.path("involvedObject").path("name").asText()).isEqualTo("b");
              assertThat(e.path("involvedObject").path("uid").asText()).isEqualTo(b);
              assertThat(e.path("message").asText())
                  .isEqualTo(
                      "uses 7484 MiB of GPU " + H100 + " memory, over its grant of 4077 MiB");
              assertThat(e.path("source").path("component").asText())
                  .isEqualTo("gantry-device-agent");
            });
    assertThat(
            kube.store()
                .get(ResourceKinds.PODS, "default", "b")
                .orElseThrow()
                .path("metadata")
                .has("deletionTimestamp"))
        .isFalse();
  }

  @Test
  void withEvictionThePodOverItsGrantIsEvicted() throws Exception {
    String a = sharingPod("a", 5);
    sharingPod("b", 10); // no process of its own: under any grant
    String c = sharingPod("c", 5);
    OverGrantWatch watch = watch(a, c, true);

    watch.runOnce();

    assertThat(
            kube.store()
                .get(ResourceKinds.PODS, "default", "c")
                .orElseThrow()
                .path("metadata")
                .has("deletionTimestamp"))
        .isTrue();
    assertThat(
            kube.store()
                .get(ResourceKinds.PODS, "default", "a")
                .orElseThrow()
                .path("metadata")
                .has("deletionTimestamp"))
        .isFalse();
    assertThat(kube.requests().count("create", "/api/v1/namespaces/default/pods/c/eviction"))
        .isEqualTo(1);
  }
}
