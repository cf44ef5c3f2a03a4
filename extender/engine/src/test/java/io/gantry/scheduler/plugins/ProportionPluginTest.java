package io.gantry.scheduler.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.gpusharing.GpuAmount;
import io.gantry.scheduler.fairness.QueueAttributes;
import io.gantry.scheduler.framework.JobState;
import io.gantry.scheduler.framework.Session;
import io.gantry.scheduler.framework.Statement;
import io.gantry.scheduler.framework.TaskState;
import io.gantry.scheduler.model.ClusterSnapshot;
import io.gantry.scheduler.model.JobInfo;
import io.gantry.scheduler.model.QueueInfo;
import io.gantry.scheduler.model.ResourceKind;
import io.gantry.scheduler.model.TaskStatus;
import io.gantry.scheduler.model.dra.DeviceNodes;
import io.gantry.scheduler.model.dra.DynamicResources;
import io.gantry.scheduler.plugins.dynamicresources.PublishedGpuDevices;
import io.gantry.scheduler.testing.Dra;
import io.gantry.scheduler.testing.FitTexts;
import io.gantry.scheduler.testing.FitTexts.JobFitText;
import io.gantry.scheduler.testing.Jobs;
import io.gantry.scheduler.testing.Nodes;
import io.gantry.scheduler.testing.Queues;
import io.gantry.scheduler.testing.Sessions;
import io.gantry.scheduler.testing.Snapshots;
import io.gantry.scheduler.testing.Tasks;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The proportion plugin (kai-reference §5.1–5.5): at session open, queue allocation and request
 * from the session's tasks and fair shares divided level by level over the queue tree; its capacity
 * checks with KAI's messages; and queue allocation following statements as a listener.
 */
class ProportionPluginTest {
  private static final long GI = 1L << 30;

  /** What the plugin holds for one queue. */
  record QueueView(
      double allocatedGpus,
      double allocatedNonPreemptibleGpus,
      double requestedGpus,
      double fairShareGpus,
      double allocatedCpuMillis,
      double fairShareCpuMillis,
      double allocatedMemoryBytes) {
    static QueueView of(QueueAttributes q) {
      return new QueueView(
          q.allocated(ResourceKind.GPU),
          q.allocatedNonPreemptible(ResourceKind.GPU),
          q.request(ResourceKind.GPU),
          q.fairShare(ResourceKind.GPU),
          q.allocated(ResourceKind.CPU),
          q.fairShare(ResourceKind.CPU),
          q.allocated(ResourceKind.MEMORY));
    }
  }

  /**
   * Two ready 8-GPU nodes (a third, not ready, is not counted); queues org (GPU quota 6) with
   * children qa (quota 2, weight 1) and qb (quota 2, weight 3), and other (quota 2). qa runs 2 GPUs
   * with 4 cores and 16Gi and waits for 4 more; qb waits for 12 (and has 4 gated, not requested);
   * other waits for 4; a job of an unknown queue is ignored.
   */
  @Test
  void sessionOpenAccountsTasksAndDividesFairSharesLevelByLevel() {
    ProportionPlugin plugin = new ProportionPlugin(ProportionArgs.DEFAULTS);
    Sessions.open(
        Snapshots.of(
            List.of(
                Nodes.node("n1").gpus(8).build(),
                Nodes.node("n2").gpus(8).build(),
                Nodes.node("n3").gpus(8).notReady().build()),
            List.of(
                Queues.queue("org").gpu(6, 1, -1).build(),
                Queues.queue("qa").parent("org").gpu(2, 1, -1).build(),
                Queues.queue("qb").parent("org").gpu(2, 3, -1).build(),
                Queues.queue("other").gpu(2, 1, -1).build()),
            List.of(
                Jobs.job("running")
                    .queue("qa")
                    .task(Tasks.task("t0").gpus(2).cpu("4").memory("16Gi").running("n1"))
                    .build(),
                Jobs.job("more-a").queue("qa").tasks(2, t -> t.gpus(2)).build(),
                Jobs.job("big-b").queue("qb").tasks(3, t -> t.gpus(4)).build(),
                Jobs.job("gated-b").queue("qb").task(Tasks.task("t0").gpus(4).gated()).build(),
                Jobs.job("other").queue("other").tasks(2, t -> t.gpus(2)).build(),
                Jobs.job("lost").queue("missing").task(Tasks.task("t0").gpus(8)).build())),
        plugin);

    // Top level, 16 GPUs: org 6 and other 2 deserved, the 8 left split 4/4 by equal weights;
    // other needs only 2 of its 4, which go to org in a second round: org 12, other 4.
    // Inside org, 12 GPUs: qa 2 and qb 2 deserved, the 8 left split 1:3: qa 4, qb 8.
    // CPU has no quota: each queue's fair share is what it requests.
    assertThat(views(plugin))
        .isEqualTo(
            Map.of(
                "org", new QueueView(2, 0, 18, 12, 4_000, 4_000, 16 * GI),
                "qa", new QueueView(2, 0, 6, 4, 4_000, 4_000, 16 * GI),
                "qb", new QueueView(0, 0, 12, 8, 0, 0, 0),
                "other", new QueueView(0, 0, 4, 4, 0, 0, 0)));
  }

  /**
   * A cluster whose GPUs are all published by DRA ResourceSlices: n1 (ready) publishes 4, n2 (not
   * ready) 2, and a slice for all nodes 1 more. qa and qb (GPU quota 0, weight 1) each wait for 4
   * GPUs, so the 5 GPUs the ready node reaches are split by weight: 2 each, the last one to qa (the
   * older queue).
   */
  @Test
  void draPublishedGpusCountInTheCapacityTheQueuesDivide() {
    ProportionPlugin plugin =
        new ProportionPlugin(ProportionArgs.DEFAULTS, new PublishedGpuDevices(Dra.SELECTORS));
    ClusterSnapshot s =
        Snapshots.of(
            List.of(
                Nodes.node("n1").cpu("8").build(), Nodes.node("n2").cpu("8").notReady().build()),
            List.of(
                Queues.queue("qa").gpu(0, 1, -1).build(), Queues.queue("qb").gpu(0, 1, -1).build()),
            List.of(
                Jobs.job("a").queue("qa").task(Tasks.task("t0").gpus(4)).build(),
                Jobs.job("b").queue("qb").task(Tasks.task("t0").gpus(4)).build()));
    DynamicResources dra =
        Dra.resources(
            List.of(Dra.gpuClass()),
            List.of(
                Dra.slice(
                    "n1", Dra.device("g0"), Dra.device("g1"), Dra.device("g2"), Dra.device("g3")),
                Dra.slice("n2", Dra.device("g0"), Dra.device("g1")),
                Dra.sliceFor("fabric", DeviceNodes.ALL_NODES, Dra.device("g0"))),
            List.of());
    Sessions.open(
        new ClusterSnapshot(
            s.now(), s.nodes(), s.queues(), s.jobs(), s.queueUsage(), s.topologies(), dra),
        plugin);

    assertThat(plugin.queues().clusterTotal().gpus()).isEqualTo(5);
    assertThat(plugin.queues().get("qa").fairShare(ResourceKind.GPU)).isEqualTo(3);
    assertThat(plugin.queues().get("qb").fairShare(ResourceKind.GPU)).isEqualTo(2);
  }

  record CapacityCase(
      String name,
      List<QueueInfo> queues,
      List<JobInfo> running,
      Jobs.Builder job,
      Optional<JobFitText> expected) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<CapacityCase> capacityCases() {
    JobInfo twoInQa =
        Jobs.job("running-a").queue("qa").task(Tasks.task("t0").gpus(2).running("n1")).build();
    JobInfo twoInQb =
        Jobs.job("running-b").queue("qb").task(Tasks.task("t0").gpus(2).running("n1")).build();
    return Stream.of(
        new CapacityCase(
            "within the limit",
            tree(Queues.queue("qa").parent("org").gpu(2, 1, 4)),
            List.of(twoInQa),
            Jobs.job("j").queue("qa").task(Tasks.task("t0").gpus(2)),
            Optional.empty()),
        new CapacityCase(
            "over the leaf queue's GPU limit",
            tree(Queues.queue("qa").parent("org").gpu(2, 1, 4)),
            List.of(twoInQa),
            Jobs.job("j").queue("qa").task(Tasks.task("t0").gpus(3)),
            overLimit(
                "qa quota has reached the allowable limit of GPUs. Limit is 4 GPUs, currently 2"
                    + " GPUs allocated and workload requested 3 GPUs")),
        new CapacityCase(
            "over the parent's GPU limit, counting its other child",
            List.of(
                Queues.queue("org").gpu(-1, 1, 5).build(),
                Queues.queue("qa").parent("org").build(),
                Queues.queue("qb").parent("org").build()),
            List.of(twoInQa, twoInQb),
            Jobs.job("j").queue("qa").task(Tasks.task("t0").gpus(2)),
            overLimit(
                "org quota has reached the allowable limit of GPUs. Limit is 5 GPUs, currently 4"
                    + " GPUs allocated and workload requested 2 GPUs")),
        new CapacityCase(
            "over the CPU limit",
            tree(Queues.queue("qa").parent("org").cpu(-1, 1, 8_000)),
            List.of(),
            Jobs.job("j").queue("qa").task(Tasks.task("t0").cpu("10")),
            overLimit(
                "qa quota has reached the allowable limit of CPU cores. Limit is 8 cores,"
                    + " currently 0 cores allocated and workload requested 10 cores")),
        new CapacityCase(
            "over the memory limit",
            tree(Queues.queue("qa").parent("org").memory(-1, 1, 100e9)),
            List.of(),
            Jobs.job("j").queue("qa").task(Tasks.task("t0").memoryBytes(200_000_000_000L)),
            overLimit(
                "qa quota has reached the allowable limit of memory. Limit is 100 GB, currently 0"
                    + " GB allocated and workload requested 200 GB")),
        new CapacityCase(
            "a GPU-memory request is converted with the largest node GPU memory",
            tree(Queues.queue("qa").parent("org").gpu(-1, 1, 0.2)),
            List.of(),
            Jobs.job("j").queue("qa").task(Tasks.task("t0").gpuMemoryMib(20_000)),
            overLimit(
                "qa quota has reached the allowable limit of GPUs. Limit is 0.2 GPUs, currently 0"
                    + " GPUs allocated and workload requested 0.25 GPUs")),
        new CapacityCase(
            "a preemptible job may go over quota",
            tree(Queues.queue("qa").parent("org").gpu(2, 1, -1)),
            List.of(twoInQa),
            Jobs.job("j").queue("qa").task(Tasks.task("t0").gpus(3)),
            Optional.empty()),
        new CapacityCase(
            "a non-preemptible job may not go over quota",
            tree(Queues.queue("qa").parent("org").gpu(2, 1, -1)),
            List.of(twoInQa),
            Jobs.job("j").queue("qa").nonPreemptible().task(Tasks.task("t0").gpus(3)),
            Optional.of(
                FitTexts.nonPreemptibleOverQuota(
                    "Non-preemptible workload is over quota. Workload requested 3 GPUs, but qa"
                        + " quota is 2 GPUs, while 0 GPUs are already allocated for"
                        + " non-preemptible pods. Use a preemptible workload to go over"
                        + " quota."))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("capacityCases")
  void jobCapacityChecks(CapacityCase c) {
    ProportionPlugin plugin = new ProportionPlugin(ProportionArgs.DEFAULTS);
    Session session = capacitySession(c, plugin);
    JobState job = session.job("ns/j");

    assertThat(FitTexts.of(plugin.checkJob(job, job.tasks()))).isEqualTo(c.expected());
  }

  @Test
  void taskCapacityOnANodeUsesTheGpusGivenForThatNode() {
    ProportionPlugin plugin = new ProportionPlugin(ProportionArgs.DEFAULTS);
    Session session =
        capacitySession(
            new CapacityCase(
                "",
                tree(Queues.queue("qa").parent("org").gpu(-1, 1, 2.5)),
                List.of(
                    Jobs.job("running-a")
                        .queue("qa")
                        .task(Tasks.task("t0").gpus(2).running("n1"))
                        .build()),
                Jobs.job("j").queue("qa").task(Tasks.task("t0").gpuFraction(0.5)),
                Optional.empty()),
            plugin);
    TaskState task = session.task("ns/j/t0");

    assertThat(
            List.of(
                FitTexts.of(
                    plugin.checkTaskOnNode(task, session.node("n1"), GpuAmount.ofHundredths(50))),
                FitTexts.of(
                    plugin.checkTaskOnNode(task, session.node("n1"), GpuAmount.ofHundredths(75)))))
        .containsExactly(
            Optional.empty(),
            overLimit(
                "qa quota has reached the allowable limit of GPUs. Limit is 2.5 GPUs, currently 2"
                    + " GPUs allocated and workload requested 0.75 GPUs"));
  }

  @Test
  void allocationFollowsStatementsUpTheTree() {
    ProportionPlugin plugin = new ProportionPlugin(ProportionArgs.DEFAULTS);
    Session session =
        Sessions.open(
            Snapshots.of(
                List.of(Nodes.node("n1").gpus(8).build()),
                tree(Queues.queue("qa").parent("org")),
                List.of(
                    Jobs.job("running")
                        .queue("qa")
                        .task(Tasks.task("t0").gpus(2).cpu("4").running("n1"))
                        .build(),
                    Jobs.job("np")
                        .queue("qa")
                        .nonPreemptible()
                        .task(Tasks.task("t0").gpus(1).cpu("2"), Tasks.task("t1").gpus(3))
                        .build())),
            plugin);
    Map<String, QueueView> atOpen = views(plugin);
    Map<String, QueueView> allocated;
    Map<String, QueueView> pipelined;
    try (Statement statement = session.statement()) {
      statement.allocate(session.task("ns/np/t0"), session.node("n1"), List.of(), GpuAmount.ZERO);
      allocated = views(plugin);
      statement.pipeline(session.task("ns/np/t1"), session.node("n1"), List.of(), GpuAmount.ZERO);
      pipelined = views(plugin);
    }
    Map<String, QueueView> discarded = views(plugin);

    QueueView before = new QueueView(2, 0, 6, 6, 4_000, 6_000, 0);
    QueueView withT0 = new QueueView(3, 1, 6, 6, 6_000, 6_000, 0);
    QueueView withT1 = new QueueView(6, 4, 6, 6, 6_000, 6_000, 0);
    QueueView idle = new QueueView(0, 0, 0, 0, 0, 0, 0);
    assertThat(List.of(atOpen, allocated, pipelined, discarded))
        .containsExactly(
            Map.of("org", before, "qa", before, "qb", idle),
            Map.of("org", withT0, "qa", withT0, "qb", idle),
            Map.of("org", withT1, "qa", withT1, "qb", idle),
            Map.of("org", before, "qa", before, "qb", idle));
    assertThat(session.task("ns/np/t1").status()).isEqualTo(TaskStatus.PENDING);
  }

  private static Session capacitySession(CapacityCase c, ProportionPlugin plugin) {
    List<JobInfo> jobs = new ArrayList<>(c.running());
    jobs.add(c.job().build());
    return Sessions.open(
        Snapshots.of(
            List.of(
                Nodes.node("n1").gpus(8).gpuMemoryMib(40_000).build(),
                Nodes.node("n2").gpus(8).gpuMemoryMib(80_000).build()),
            c.queues(),
            jobs),
        plugin);
  }

  /** The queue {@code org} (no bounds) with {@code leaf} (and an unbounded qb) under it. */
  private static List<QueueInfo> tree(Queues.Builder leaf) {
    return List.of(
        Queues.queue("org").build(), leaf.build(), Queues.queue("qb").parent("org").build());
  }

  private static Optional<JobFitText> overLimit(String message) {
    return Optional.of(FitTexts.overLimit(message));
  }

  private static Map<String, QueueView> views(ProportionPlugin plugin) {
    Map<String, QueueView> out = new TreeMap<>();
    for (QueueAttributes q : plugin.queues().all()) {
      out.put(q.name(), QueueView.of(q));
    }
    return out;
  }
}
