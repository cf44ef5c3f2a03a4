package io.gantry.deviceagent.enforcement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import io.gantry.deviceagent.kube.NodePods;
import io.gantry.deviceagent.kube.PodEnforcer;
import io.gantry.deviceagent.metrics.DeviceAgentMetrics;
import io.gantry.deviceagent.testing.SharedGpuPods;
import io.gantry.fakekube.FakeKubeServer;
import io.gantry.fakekube.ResourceKinds;
import io.gantry.nodecommon.kube.ApiClients;
import io.gantry.nodecommon.nvidiasmi.NvidiaSmi;
import io.gantry.nodecommon.testing.FakeNvidiaSmi;
import io.gantry.nodecommon.testing.Fixtures;
import io.gantry.proto.nodeagent.v1.NodeAgentProto.EnforcementAction;
import io.gantry.proto.nodeagent.v1.NodeAgentProto.EnforcementEvent;
import io.kubernetes.client.openapi.ApiClient;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
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
  private static final String H100 = SharedGpuPods.H100;

  @TempDir Path tmp;

  private final FakeKubeServer kube = FakeKubeServer.start();
  private final ApiClient client = ApiClients.forUrl(kube.url());
  private final List<EnforcementEvent> enforced = new ArrayList<>();
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final DeviceAgentMetrics metrics = new DeviceAgentMetrics(registry, "gpu-0");

  @AfterEach
  void stop() {
    kube.close();
  }

  private OverGrantWatch watch(String podA, String podB, boolean evict) throws Exception {
    Path proc = SharedGpuPods.proc(tmp, podA, podB);
    Path smi =
        FakeNvidiaSmi.in(Files.createDirectories(tmp.resolve("bin")))
            .answer(SharedGpuPods.COMPUTE_APPS_QUERY, Fixtures.read(Fixtures.COMPUTE_APPS_H100))
            .install();
    return new OverGrantWatch(
        new GpuUsageReader(
            NvidiaSmi.locate(smi.toString(), "", Duration.ofSeconds(10)), new PodCgroups(proc)),
        new NodePods(client, "gpu-0"),
        new PodEnforcer(client, "gpu-0", Clock.systemUTC()),
        evict,
        enforced::add,
        metrics.overGrant());
  }

  /** The pod's GPU memory gauge {@code used} or {@code granted}, in MiB. */
  private double memoryMib(String gauge, String pod) {
    return registry
            .get(DeviceAgentMetrics.PREFIX + "pod.gpu.memory." + gauge)
            .tags("node", "gpu-0", "pod_namespace", "default", "pod_name", pod, "gpu_uuid", H100)
            .gauge()
            .value()
        / (1024 * 1024);
  }

  private double overGrantActions(String action) {
    return registry
        .get(DeviceAgentMetrics.PREFIX + "over.grant.actions")
        .tags("node", "gpu-0", "action", action)
        .counter()
        .count();
  }

  private List<JsonNode> events() {
    return kube.store().list(ResourceKinds.EVENTS, "default").stream()
        .map(JsonNode.class::cast)
        .toList();
  }

  @Test
  void aPodOverItsGrantGetsOneWarningEventAndAPodUnderItNone() throws Exception {
    // a: 2296 + 1272 = 3568 MiB used, 0.05 of 81559 = 4077 MiB granted; b: 7484 MiB used, 4077.
    String a = SharedGpuPods.sharingPod(kube, "a", 5);
    String b = SharedGpuPods.sharingPod(kube, "b", 5);
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
    assertThat(enforced).containsExactly(SharedGpuPods.podBOverItsGrant(b));
    assertThat(memoryMib("used", "a")).isEqualTo(3568.0);
    assertThat(memoryMib("granted", "a")).isEqualTo(4077.0);
    assertThat(memoryMib("used", "b")).isEqualTo(7484.0);
    assertThat(memoryMib("granted", "b")).isEqualTo(4077.0);
    // warned once over the two rounds, never evicted
    assertThat(overGrantActions("warned")).isEqualTo(1.0);
    assertThat(overGrantActions("evicted")).isZero();
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
    String a = SharedGpuPods.sharingPod(kube, "a", 5);
    SharedGpuPods.sharingPod(kube, "b", 10); // no process of its own: under any grant
    String c = SharedGpuPods.sharingPod(kube, "c", 5);
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
    assertThat(enforced)
        .extracting(EnforcementEvent::getPodName, EnforcementEvent::getAction)
        .containsExactly(
            tuple("c", EnforcementAction.ENFORCEMENT_ACTION_LIMIT_EXCEEDED),
            tuple("c", EnforcementAction.ENFORCEMENT_ACTION_CONTAINER_KILLED));
    assertThat(enforced.get(1).getMessage())
        .isEqualTo("pod default/c was evicted for using more GPU memory than its grant");
    // b has a grant and no process: 0 used of its tenth
    assertThat(memoryMib("used", "b")).isZero();
    assertThat(memoryMib("granted", "b")).isEqualTo(8155.0);
    assertThat(overGrantActions("warned")).isEqualTo(1.0);
    assertThat(overGrantActions("evicted")).isEqualTo(1.0);
  }
}
