package io.gantry.extender;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableList;
import io.gantry.extender.wire.BindingArgs;
import io.gantry.extender.wire.ExtenderArgs;
import io.gantry.extender.wire.FilterResult;
import io.gantry.extender.wire.HostPriority;
import io.gantry.extender.wire.NodeNames;
import io.gantry.extender.wire.PodRef;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class ExtenderTest {
  private static final ImmutableList<String> NODES = ImmutableList.of("node-0", "node-1");
  private static final String GANG_OF_4 =
      """
      - name: gang
        queue: team-a
        priorityClass: train
        minMember: 4
        tasks: [{name: worker, replicas: 4, resources: {cpu: "1", memory: 1Gi, nvidia.com/gpu: 2}}]
      """;

  private final TestClock clock = new TestClock(Instant.parse("2026-01-01T00:00:00Z"));

  private static ExtenderArgs args(String pod) {
    return new ExtenderArgs(new PodRef("default", pod, ""), NodeNames.of(NODES), Optional.empty());
  }

  private static BindOutcome bindTo(Extender e, String pod, String node)
      throws InterruptedException {
    return e.bind(new BindingArgs(new PodRef("default", pod, ""), node));
  }

  @Test
  void aGangThatFitsIsPlannedWholeAndBoundOnlyWhenAllMembersReachBind() throws Exception {
    Scenarios.Served s =
        Scenarios.serve(Scenarios.cluster(2, 4, GANG_OF_4), ExtenderSettings.DEFAULTS, clock);
    List<String> planned = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      FilterResult r = s.extender().filter(args("gang-worker-" + i));
      assertThat(r.passing()).hasSize(1);
      planned.add(r.passing().get(0));
      ImmutableList<HostPriority> scores = s.extender().prioritize(args("gang-worker-" + i));
      // the other node is left out of both answers: kube-scheduler drops it and scores it 0
      assertThat(r.failedNodes()).isEmpty();
      assertThat(r.failedAndUnresolvableNodes()).isEmpty();
      assertThat(scores).containsExactly(new HostPriority(r.passing().get(0), 10));
    }
    // one engine cycle planned the whole gang; the other members were answered from reservations
    assertThat(s.extender().metrics().planCount()).isEqualTo(1.0);
    assertThat(planned).containsExactlyInAnyOrder("node-0", "node-0", "node-1", "node-1");

    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<BindOutcome>> binds = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        String pod = "gang-worker-" + i;
        String node = planned.get(i);
        binds.add(pool.submit(() -> bindTo(s.extender(), pod, node)));
      }
      Thread.sleep(200);
      // three of four members wait at the barrier: nothing is bound yet
      assertThat(s.cluster().bindings()).isEmpty();
      assertThat(bindTo(s.extender(), "gang-worker-3", planned.get(3)))
          .isEqualTo(new BindOutcome.Bound());
      for (Future<BindOutcome> f : binds) {
        assertThat(f.get()).isEqualTo(new BindOutcome.Bound());
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(s.cluster().bindings()).hasSize(4);
    s.extender().close();
  }

  @Test
  void aMemberAskedAboutNodesWithoutItsReservedOneFailsEachNamingTheReservation() {
    Scenarios.Served s =
        Scenarios.serve(Scenarios.cluster(2, 4, GANG_OF_4), ExtenderSettings.DEFAULTS, clock);
    String reserved = s.extender().filter(args("gang-worker-0")).passing().get(0);
    String other = reserved.equals("node-0") ? "node-1" : "node-0";
    FilterResult r =
        s.extender()
            .filter(
                new ExtenderArgs(
                    new PodRef("default", "gang-worker-0", ""),
                    NodeNames.of(ImmutableList.of(other)),
                    Optional.empty()));
    assertThat(r.passing()).isEmpty();
    assertThat(r.failedAndUnresolvableNodes())
        .containsOnlyKeys(other)
        .containsValue(
            "Gantry reserved node " + reserved + " for this pod with PodGroup default/gang");
    s.extender().close();
  }

  @Test
  void aGangThatDoesNotFitFailsEveryNodeWithKaisGangMessage() {
    String filler =
        """
        - name: filler
          queue: team-a
          priorityClass: train
          tasks: [{name: run, status: Running, node: node-1, resources: {cpu: "1", memory: 1Gi, nvidia.com/gpu: 2}}]
        """;
    Scenarios.Served s =
        Scenarios.serve(
            Scenarios.cluster(2, 4, filler + GANG_OF_4), ExtenderSettings.DEFAULTS, clock);
    FilterResult r = s.extender().filter(args("gang-worker-0"));
    assertThat(r.passing()).isEmpty();
    assertThat(r.failedNodes()).isEmpty();
    assertThat(r.failedAndUnresolvableNodes()).containsOnlyKeys("node-0", "node-1");
    assertThat(r.failedAndUnresolvableNodes().get("node-0"))
        .contains("Resources were found for 3 pods while 4 are required for gang scheduling");
    // no node is preferred: every node is left out, which kube-scheduler scores 0
    assertThat(s.extender().prioritize(args("gang-worker-0"))).isEmpty();
    s.extender().close();
  }

  @Test
  void aMemberWaitingAloneGivesUpWithinTheHttpTimeoutAndNothingIsBound() throws Exception {
    ExtenderSettings settings =
        new ExtenderSettings(
            Duration.ofSeconds(30),
            Duration.ofMillis(250),
            true,
            ExtenderSettings.DEFAULT_MAX_REQUEST_BYTES,
            Duration.ofSeconds(5),
            0);
    Scenarios.Served s = Scenarios.serve(Scenarios.cluster(2, 4, GANG_OF_4), settings, clock);
    String node = s.extender().filter(args("gang-worker-0")).passing().get(0);
    assertThat(bindTo(s.extender(), "gang-worker-0", node))
        .isEqualTo(
            new BindOutcome.BindRejected(
                "PodGroup default/gang has 1 of the 4 pods it needs waiting to bind after 200ms;"
                    + " the gang is not bound partially"));
    assertThat(s.cluster().bindings()).isEmpty();
    s.extender().close();
  }

  @Test
  void anExpiredReservationIsOfferedAgainWithAnEventAndAMetric() {
    String twoGangs =
        GANG_OF_4
            + """
            - name: other
              queue: team-a
              priorityClass: train
              minMember: 4
              tasks: [{name: worker, replicas: 4, resources: {cpu: "1", memory: 1Gi, nvidia.com/gpu: 2}}]
            """;
    ExtenderSettings noFairShare =
        new ExtenderSettings(
            Duration.ofSeconds(30),
            ExtenderSettings.DEFAULT_HTTP_TIMEOUT,
            false,
            ExtenderSettings.DEFAULT_MAX_REQUEST_BYTES,
            ExtenderSettings.DEFAULT_REQUEST_TIMEOUT,
            0);
    Scenarios.Served s = Scenarios.serve(Scenarios.cluster(2, 4, twoGangs), noFairShare, clock);
    assertThat(s.extender().filter(args("gang-worker-0")).passing()).hasSize(1);
    // the first gang holds every GPU: the second fails whole
    FilterResult other = s.extender().filter(args("other-worker-0"));
    assertThat(other.passing()).isEmpty();
    assertThat(other.failedAndUnresolvableNodes()).containsOnlyKeys("node-0", "node-1");

    clock.advance(Duration.ofSeconds(31));
    assertThat(s.extender().filter(args("other-worker-0")).passing()).hasSize(1);
    assertThat(s.extender().metrics().expiredCount()).isEqualTo(4.0);
    assertThat(s.cluster().events())
        .hasSize(4)
        .allMatch(e -> e.contains("GangReservationExpired: Capacity reserved on node"))
        .anyMatch(e -> e.startsWith("default/gang-worker-0 "));
    s.extender().close();
  }

  @Test
  void twoHalvesShareOneDeviceAndBindWithTheirGroup() throws Exception {
    String halves =
        """
        - {name: half-1, queue: team-a, priorityClass: train, tasks: [{name: run, gpuFraction: 0.5, resources: {cpu: "1", memory: 4Gi}}]}
        - {name: half-2, queue: team-a, priorityClass: train, tasks: [{name: run, gpuFraction: 0.5, resources: {cpu: "1", memory: 4Gi}}]}
        """;
    Scenarios.Served s =
        Scenarios.serve(Scenarios.cluster(1, 2, halves), ExtenderSettings.DEFAULTS, clock);
    ExtenderArgs one =
        new ExtenderArgs(
            new PodRef("default", "half-1-run", ""),
            NodeNames.of(ImmutableList.of("node")),
            Optional.empty());
    assertThat(s.extender().filter(one).passing()).containsExactly("node");
    assertThat(bindTo(s.extender(), "half-1-run", "node")).isEqualTo(new BindOutcome.Bound());
    ExtenderArgs two =
        new ExtenderArgs(
            new PodRef("default", "half-2-run", ""),
            NodeNames.of(ImmutableList.of("node")),
            Optional.empty());
    assertThat(s.extender().filter(two).passing()).containsExactly("node");
    assertThat(bindTo(s.extender(), "half-2-run", "node")).isEqualTo(new BindOutcome.Bound());
    PlannedNode a = s.cluster().bindings().get("default/half-1-run");
    PlannedNode b = s.cluster().bindings().get("default/half-2-run");
    assertThat(a.gpuGroups()).hasSize(1).isEqualTo(b.gpuGroups());
    assertThat(a.gpuPortion().hundredths()).isEqualTo(50);
    s.extender().close();
  }

  @Test
  void aPodOutsideGantrysPodGroupsPassesEveryNode() {
    Scenarios.Served s =
        Scenarios.serve(Scenarios.cluster(2, 4, GANG_OF_4), ExtenderSettings.DEFAULTS, clock);
    assertThat(s.extender().filter(args("stranger")).passing()).containsExactlyElementsOf(NODES);
    s.extender().close();
  }
}
