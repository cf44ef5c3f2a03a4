package io.gantry.extender;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.extender.wire.ExtenderArgs;
import io.gantry.extender.wire.FilterResult;
import io.gantry.extender.wire.NodeNames;
import io.gantry.extender.wire.NodeVictims;
import io.gantry.extender.wire.PodRef;
import io.gantry.extender.wire.PreemptionArgs;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Queues, fair share and preemption as the extender applies them. */
class ExtenderRulesTest {
  private final TestClock clock = new TestClock(Instant.parse("2026-01-01T00:00:00Z"));

  private static ExtenderArgs args(String pod, String... nodes) {
    return new ExtenderArgs(
        new PodRef("default", pod, ""),
        NodeNames.of(ImmutableList.copyOf(nodes)),
        Optional.empty());
  }

  private static ExtenderSettings fairShareWaiting(boolean on) {
    return new ExtenderSettings(
        ExtenderSettings.DEFAULT_RESERVATION_TTL,
        ExtenderSettings.DEFAULT_HTTP_TIMEOUT,
        on,
        ExtenderSettings.DEFAULT_MAX_REQUEST_BYTES,
        ExtenderSettings.DEFAULT_REQUEST_TIMEOUT,
        0);
  }

  @Test
  void aPodWhoseQueueIsAtItsLimitFailsWithKaisMessage() {
    String yaml =
        """
        apiVersion: gantry.io/v1alpha1
        kind: Scenario
        metadata: {name: limit}
        nodes:
          - {name: node, count: 2, gpus: 4, gpuMemory: 81920, cpu: "64", memory: 512Gi}
        queues:
          - name: team-a
            resources:
              gpu: {quota: 2, overQuotaWeight: 1, limit: 2}
              cpu: {quota: -1, overQuotaWeight: 1, limit: -1}
              memory: {quota: -1, overQuotaWeight: 1, limit: -1}
        jobs:
          - {name: big, queue: team-a, priorityClass: train, tasks: [{name: run, resources: {cpu: "1", memory: 1Gi, nvidia.com/gpu: 4}}]}
        """;
    Scenarios.Served s = Scenarios.serve(yaml, ExtenderSettings.DEFAULTS, clock);
    FilterResult r = s.extender().filter(args("big-run", "node-0", "node-1"));
    assertThat(r.passing()).isEmpty();
    assertThat(r.failedAndUnresolvableNodes().get("node-0"))
        .contains(
            "team-a quota has reached the allowable limit of GPUs. Limit is 2 GPUs, currently 0"
                + " GPUs allocated and workload requested 4 GPUs");
    s.extender().close();
  }

  private static final String TWO_QUEUES =
      """
      apiVersion: gantry.io/v1alpha1
      kind: Scenario
      metadata: {name: fair}
      nodes:
        - {name: node-0, gpus: 4, gpuMemory: 81920, cpu: "64", memory: 512Gi}
      queues:
        - name: team-a
          resources:
            gpu: {quota: 2, overQuotaWeight: 1, limit: -1}
            cpu: {quota: -1, overQuotaWeight: 1, limit: -1}
            memory: {quota: -1, overQuotaWeight: 1, limit: -1}
        - name: team-b
          resources:
            gpu: {quota: 2, overQuotaWeight: 1, limit: -1}
            cpu: {quota: -1, overQuotaWeight: 1, limit: -1}
            memory: {quota: -1, overQuotaWeight: 1, limit: -1}
      jobs:
        - {name: a-running, queue: team-a, priorityClass: train, createdAt: -1h,
           tasks: [{name: run, status: Running, node: node-0, resources: {cpu: "1", memory: 1Gi, nvidia.com/gpu: 2}}]}
        - {name: a-more, queue: team-a, priorityClass: train, createdAt: -10m,
           tasks: [{name: run, resources: {cpu: "1", memory: 1Gi, nvidia.com/gpu: 2}}]}
        - {name: b-first, queue: team-b, priorityClass: train, createdAt: -1m,
           tasks: [{name: run, resources: {cpu: "1", memory: 1Gi, nvidia.com/gpu: 2}}]}
      """;

  @Test
  void withFairShareWaitingAPodOfAQueueAtItsShareWaitsForAQueueBelowIts() {
    Scenarios.Served s = Scenarios.serve(TWO_QUEUES, fairShareWaiting(true), clock);
    FilterResult a = s.extender().filter(args("a-more-run", "node-0"));
    assertThat(a.passing()).isEmpty();
    assertThat(s.extender().filter(args("b-first-run", "node-0")).passing())
        .containsExactly("node-0");
    s.extender().close();
  }

  @Test
  void withoutFairShareWaitingTheFirstPodToAskGetsTheRoom() {
    Scenarios.Served s = Scenarios.serve(TWO_QUEUES, fairShareWaiting(false), clock);
    assertThat(s.extender().filter(args("a-more-run", "node-0")).passing())
        .containsExactly("node-0");
    assertThat(s.extender().filter(args("b-first-run", "node-0")).passing()).isEmpty();
    s.extender().close();
  }

  @Test
  void preemptKeepsOnlyNodesWhoseVictimsGantryAllowsAndNeverANonPreemptiblePod() {
    String yaml =
        """
        apiVersion: gantry.io/v1alpha1
        kind: Scenario
        metadata: {name: preempt}
        nodes:
          - {name: node, count: 2, gpus: 4, gpuMemory: 81920, cpu: "64", memory: 512Gi}
        queues:
          - name: team-a
            resources:
              gpu: {quota: 8, overQuotaWeight: 1, limit: -1}
              cpu: {quota: -1, overQuotaWeight: 1, limit: -1}
              memory: {quota: -1, overQuotaWeight: 1, limit: -1}
        jobs:
          - {name: low, queue: team-a, priorityClass: train, createdAt: -1h,
             tasks: [{name: run, status: Running, node: node-0, resources: {cpu: "1", memory: 1Gi, nvidia.com/gpu: 4}}]}
          - {name: fixed, queue: team-a, priorityClass: build, createdAt: -1h,
             tasks: [{name: run, status: Running, node: node-1, resources: {cpu: "1", memory: 1Gi, nvidia.com/gpu: 4}}]}
          - {name: urgent, queue: team-a, priorityClass: inference, createdAt: -1m,
             tasks: [{name: run, resources: {cpu: "1", memory: 1Gi, nvidia.com/gpu: 4}}]}
        """;
    Scenarios.Served s = Scenarios.serve(yaml, ExtenderSettings.DEFAULTS, clock);
    FilterResult r = s.extender().filter(args("urgent-run", "node-0", "node-1"));
    assertThat(r.passing()).isEmpty();
    // evicting the preemptible pod on node-0 would make room; nothing on node-1 may go
    assertThat(r.failedNodes()).containsOnlyKeys("node-0");
    assertThat(r.failedAndUnresolvableNodes()).containsOnlyKeys("node-1");

    NodeVictims low = new NodeVictims(ImmutableList.of("default/low/run"), 0);
    NodeVictims fixed = new NodeVictims(ImmutableList.of("default/fixed/run"), 0);
    NodeVictims unknown = new NodeVictims(ImmutableList.of("no-such-uid"), 0);
    ImmutableSortedMap<String, NodeVictims> kept =
        s.extender()
            .preempt(
                new PreemptionArgs(
                    new PodRef("default", "urgent-run", ""),
                    ImmutableSortedMap.of("node-0", low, "node-1", fixed, "node-2", unknown)));
    assertThat(kept).containsExactly(java.util.Map.entry("node-0", low));
    s.extender().close();
  }
}
