package io.gantry.scheduler.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.scheduler.api.result.BindDecision;
import io.gantry.scheduler.api.result.CycleResult;
import io.gantry.scheduler.api.result.Decision;
import io.gantry.scheduler.api.result.PipelineDecision;
import io.gantry.scheduler.model.ClusterSnapshot;
import io.gantry.scheduler.model.JobInfo;
import io.gantry.scheduler.model.NodeInfo;
import io.gantry.scheduler.model.PodSet;
import io.gantry.scheduler.model.QueueInfo;
import io.gantry.scheduler.model.Topology;
import io.gantry.scheduler.model.TopologyConstraint;
import io.gantry.scheduler.model.TopologyLevel;
import io.gantry.scheduler.testing.Cycles;
import io.gantry.scheduler.testing.Jobs;
import io.gantry.scheduler.testing.Nodes;
import io.gantry.scheduler.testing.Queues;
import io.gantry.scheduler.testing.Snapshots;
import io.gantry.scheduler.testing.Tasks;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The topology plugin through whole cycles (kai-reference §9): which domain a constrained job lands
 * in, in which order domains are tried, the preferred-level score tier, KAI's messages when no
 * domain fits, that unlabelled nodes are never used, that running pods pin the required domain, and
 * that the victim search keeps a preemptor inside one domain.
 */
class TopologyPluginTest {
  private static final Topology CLUSTER =
      new Topology(
          "cluster",
          ImmutableList.of(
              new TopologyLevel("zone", Optional.empty()),
              new TopologyLevel("rack", Optional.of("r")),
              new TopologyLevel(NodeInfo.HOSTNAME_LABEL, Optional.empty())));

  private static final List<QueueInfo> QUEUES = List.of(Queues.queue("q").gpu(64, 1, -1).build());

  private static NodeInfo node(String name, String zone, String rack) {
    return Nodes.node(name).gpus(4).label("zone", zone).label("rack", rack).build();
  }

  private static TopologyConstraint required(String level) {
    return new TopologyConstraint("cluster", Optional.of(level), Optional.empty());
  }

  private static TopologyConstraint preferred(String level) {
    return new TopologyConstraint("cluster", Optional.empty(), Optional.of(level));
  }

  /** A running job of one task holding {@code gpus} GPUs on the node. */
  private static JobInfo filler(String name, String node, int gpus) {
    return Jobs.job(name).priority(100).task(Tasks.task("t").gpus(gpus).running(node)).build();
  }

  private static JobInfo gang(String name, int pods, int gpus, TopologyConstraint constraint) {
    return Jobs.job(name)
        .minMember(pods)
        .topologyConstraint(constraint)
        .tasks(pods, t -> t.gpus(gpus))
        .build();
  }

  private static CycleResult run(List<NodeInfo> nodes, List<JobInfo> jobs, String... actions) {
    ClusterSnapshot s = Snapshots.of(nodes, QUEUES, jobs);
    return Cycles.run(
        new ClusterSnapshot(
            s.now(),
            s.nodes(),
            s.queues(),
            s.jobs(),
            s.queueUsage(),
            ImmutableSortedMap.of(CLUSTER.name(), CLUSTER)),
        actions);
  }

  /** Where each placed task went (bound or pipelined), by task id. */
  private static Map<String, String> placements(CycleResult r) {
    Map<String, String> out = new TreeMap<>();
    for (Decision d : r.decisions()) {
      if (d instanceof BindDecision b) {
        out.put(b.taskId(), b.nodeName());
      } else if (d instanceof PipelineDecision p) {
        out.put(p.taskId(), p.nodeName());
      }
    }
    return out;
  }

  @Test
  void aRequiredRackTakesTheWholeGangToTheRackWithRoom() {
    CycleResult r =
        run(
            List.of(
                node("a1", "z1", "r1"),
                node("a2", "z1", "r1"),
                node("b1", "z1", "r2"),
                node("b2", "z1", "r2")),
            List.of(filler("f1", "a1", 3), gang("j", 4, 2, required("rack"))),
            "allocate");

    assertThat(placements(r))
        .isEqualTo(
            new TreeMap<>(
                Map.of("ns/j/t0", "b1", "ns/j/t1", "b1", "ns/j/t2", "b2", "ns/j/t3", "b2")));
  }

  @Test
  void ofTheRacksThatFitTheFullestIsTriedFirst() {
    CycleResult r =
        run(
            List.of(node("a1", "z1", "r1"), node("b1", "z1", "r2"), node("c1", "z1", "r3")),
            List.of(filler("f1", "b1", 2), filler("f2", "c1", 3), gang("j", 2, 1, required("r"))),
            "allocate");

    // r2 has 2 free (fullest that fits), r3 has 1 (too small), r1 has 4
    assertThat(placements(r)).isEqualTo(Map.of("ns/j/t0", "b1", "ns/j/t1", "b1"));
  }

  @Test
  void aPreferredRackFallsBackToTheZoneWhenNoRackFits() {
    CycleResult r =
        run(
            List.of(
                node("a1", "z1", "r1"),
                node("b1", "z1", "r2"),
                node("c1", "z2", "r3"),
                node("c2", "z2", "r3")),
            List.of(
                filler("f1", "a1", 2),
                filler("f2", "b1", 2),
                filler("f3", "c1", 4),
                filler("f4", "c2", 1),
                gang("j", 4, 1, preferred("rack"))),
            "allocate");

    // no rack has 4 free GPUs; zone z1 has 4 (a1, b1), zone z2 only 3
    assertThat(placements(r).values()).containsOnly("a1", "b1").hasSize(4);
  }

  @Test
  void insideADomainAboveThePreferredLevelTheEmptierSubDomainScoresHigher() {
    CycleResult r =
        run(
            List.of(node("a1", "z1", "r1"), node("b1", "z1", "r2")),
            List.of(
                filler("f1", "a1", 2), filler("f2", "b1", 1), gang("j", 4, 1, preferred("rack"))),
            "allocate");

    // no rack holds 4 pods, the zone does; its racks in tree order are r1 (fuller, 5 tiers) and
    // r2 (emptier, 10 tiers), so pods fill b1 first although bin-packing alone prefers a1
    assertThat(placements(r))
        .isEqualTo(
            new TreeMap<>(
                Map.of("ns/j/t0", "b1", "ns/j/t1", "b1", "ns/j/t2", "b1", "ns/j/t3", "a1")));
  }

  @Test
  void aRequiredLevelNoDomainCanMeetNamesEachRackWithThePodsItHolds() {
    CycleResult r =
        run(
            List.of(node("a1", "z1", "r1"), node("b1", "z1", "r2")),
            List.of(gang("j", 3, 2, required("rack"))),
            "allocate");

    assertThat(r.decisions()).isEmpty();
    assertThat(Cycles.job(r, "ns/j").fitMessage())
        .hasValue(
            "Unable to schedule podgroup: node-group z1.r1 can allocate only 2 of 3 required pods."
                + " \nnode-group z1.r2 can allocate only 2 of 3 required pods. \ntopology cluster,"
                + " requirement rack couldn't be satisfied for job <ns/j>.");
  }

  @Test
  void unlikePodsNameTheResourceEachRackLacks() {
    JobInfo mixed =
        Jobs.job("j")
            .minMember(2)
            .topologyConstraint(required("rack"))
            .task(Tasks.task("big").gpus(3))
            .task(Tasks.task("small").gpus(2))
            .build();
    CycleResult r =
        run(List.of(node("a1", "z1", "r1"), node("b1", "z1", "r2")), List.of(mixed), "allocate");

    assertThat(r.decisions()).isEmpty();
    assertThat(Cycles.job(r, "ns/j").fitMessage())
        .hasValue(
            "Unable to schedule podgroup: 2 node-group(s) didn't have enough resources: GPUs."
                + " \ntopology cluster, requirement rack couldn't be satisfied for job <ns/j>.");
  }

  @Test
  void aGroupTheWholeClusterCannotHoldIsAPlainSchedulingError() {
    CycleResult r =
        run(
            List.of(node("a1", "z1", "r1"), node("b1", "z2", "r2")),
            List.of(gang("j", 3, 3, required("rack"))),
            "allocate");

    assertThat(r.decisions()).isEmpty();
    assertThat(Cycles.job(r, "ns/j").fitMessage())
        .hasValue(
            "PodSchedulingErrors: topology cluster, requirement rack couldn't be satisfied for job"
                + " <ns/j>: not enough resources in the cluster to allocate the job.");
  }

  @Test
  void aMissingTopologyIsReportedByName() {
    CycleResult r =
        run(
            List.of(node("a1", "z1", "r1")),
            List.of(
                gang(
                    "j",
                    1,
                    1,
                    new TopologyConstraint("nope", Optional.of("rack"), Optional.empty()))),
            "allocate");

    assertThat(r.decisions()).isEmpty();
    assertThat(Cycles.job(r, "ns/j").fitMessage())
        .hasValue("PodSchedulingErrors: Requested topology nope does not exist.");
  }

  @Test
  void aNodeMissingALevelLabelIsNeverUsedForAConstrainedJob() {
    NodeInfo unlabelled = Nodes.node("free").gpus(8).label("zone", "z1").build();
    CycleResult constrained =
        run(
            List.of(node("a1", "z1", "r1"), unlabelled),
            List.of(filler("f1", "a1", 4), gang("j", 1, 1, preferred("zone"))),
            "allocate");
    CycleResult free =
        run(
            List.of(node("a1", "z1", "r1"), unlabelled),
            List.of(filler("f1", "a1", 4), Jobs.job("j").task(Tasks.task("t0").gpus(1)).build()),
            "allocate");

    assertThat(constrained.decisions()).isEmpty();
    assertThat(placements(free)).isEqualTo(Map.of("ns/j/t0", "free"));
  }

  @Test
  void runningPodsPinTheRequiredDomainOfTheirGroup() {
    JobInfo growing =
        Jobs.job("j")
            .minMember(1)
            .topologyConstraint(required("rack"))
            .task(Tasks.task("t0").gpus(1).running("a1"), Tasks.task("t1").gpus(1))
            .build();
    CycleResult r =
        run(
            List.of(node("a1", "z1", "r1"), node("b1", "z1", "r2")),
            List.of(filler("f1", "b1", 3), growing),
            "allocate");

    // r2 is the fuller rack, but the job already runs in r1
    assertThat(placements(r)).isEqualTo(Map.of("ns/j/t1", "a1"));
  }

  @Test
  void eachSubGroupKeepsToItsOwnDomain() {
    JobInfo job =
        Jobs.job("j")
            .subGroups(
                OptionalInt.empty(),
                new PodSet("a", 2, Optional.of(required("rack"))),
                new PodSet("b", 2, Optional.of(required("rack"))))
            .task(
                Tasks.task("a0").gpus(2).podSet("a"),
                Tasks.task("a1").gpus(2).podSet("a"),
                Tasks.task("b0").gpus(2).podSet("b"),
                Tasks.task("b1").gpus(2).podSet("b"))
            .build();
    CycleResult r =
        run(
            List.of(
                Nodes.node("a1").gpus(8).label("zone", "z1").label("rack", "r1").build(),
                Nodes.node("b1").gpus(8).label("zone", "z1").label("rack", "r2").build(),
                node("c1", "z1", "r3"),
                node("c2", "z1", "r3")),
            List.of(filler("f1", "c1", 2), filler("f2", "c2", 2), job),
            "allocate");

    // r3 has 4 free GPUs over two nodes and is the fullest rack for a; b then needs a rack of its
    // own with room, r1 (tied with r2, first by id)
    Map<String, String> placed = placements(r);
    assertThat(placed).hasSize(4);
    assertThat(List.of(placed.get("ns/j/a0"), placed.get("ns/j/a1"))).containsOnly("c1", "c2");
    assertThat(List.of(placed.get("ns/j/b0"), placed.get("ns/j/b1"))).containsOnly("a1");
  }

  @Test
  void preemptionEvictsInsideOneRackOnly() {
    List<JobInfo> jobs = new ArrayList<>();
    jobs.add(Jobs.job("low-a").priority(40).task(Tasks.task("t").gpus(4).running("a1")).build());
    jobs.add(Jobs.job("low-b").priority(40).task(Tasks.task("t").gpus(4).running("b1")).build());
    jobs.add(
        Jobs.job("urgent")
            .priority(75)
            .minMember(2)
            .topologyConstraint(required("rack"))
            .tasks(2, t -> t.gpus(4))
            .build());
    List<NodeInfo> nodes =
        List.of(
            node("a1", "z1", "r1"),
            node("a2", "z1", "r1"),
            node("b1", "z1", "r2"),
            node("b2", "z1", "r2"));

    CycleResult allocated = run(nodes, jobs, "allocate");
    CycleResult preempted = run(nodes, jobs, "allocate", "preempt");

    // a2 and b2 are free, but in different racks: allocate cannot place the gang
    assertThat(allocated.decisions()).isEmpty();
    // one victim makes a rack whole; the preemptor takes that rack, the victim may move
    List<String> evicted = Cycles.evicted(preempted);
    assertThat(evicted).hasSize(1).containsAnyOf("ns/low-a/t", "ns/low-b/t");
    String rack = evicted.get(0).equals("ns/low-a/t") ? "a" : "b";
    Map<String, String> placed = placements(preempted);
    assertThat(List.of(placed.get("ns/urgent/t0"), placed.get("ns/urgent/t1")))
        .containsExactlyInAnyOrder(rack + "1", rack + "2");
  }
}
