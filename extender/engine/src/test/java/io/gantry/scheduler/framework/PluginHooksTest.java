package io.gantry.scheduler.framework;

import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.gpusharing.GpuAmount;
import io.gantry.gpusharing.GpuCandidate;
import io.gantry.scheduler.framework.fit.CapacityExceeded;
import io.gantry.scheduler.framework.fit.NodeNotReady;
import io.gantry.scheduler.framework.fit.OverLimit;
import io.gantry.scheduler.framework.fit.UntoleratedTaint;
import io.gantry.scheduler.model.ClusterSnapshot;
import io.gantry.scheduler.model.PodSet;
import io.gantry.scheduler.model.ResourceKind;
import io.gantry.scheduler.model.placement.Taint;
import io.gantry.scheduler.model.placement.TaintEffect;
import io.gantry.scheduler.testing.Jobs;
import io.gantry.scheduler.testing.Nodes;
import io.gantry.scheduler.testing.Queues;
import io.gantry.scheduler.testing.Snapshots;
import io.gantry.scheduler.testing.Tasks;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each hook's composition rule in {@link PluginHooks}, with hand-written fake plugins that answer
 * what they are told and log every call: ordering hooks — first non-zero wins, then a fixed
 * fallback; predicates — all must pass, the first failure is returned; node and GPU scores —
 * summed; capacity — the first plugin only; listeners and session-open hooks — all, in plugin
 * order; the node index order — only when every scorer declares one.
 */
class PluginHooksTest {
  private static final FitStatus NOT_READY = FitStatus.unschedulable("a", new NodeNotReady());
  private static final FitStatus TAINTED =
      FitStatus.unschedulable(
          "b", new UntoleratedTaint(new Taint("dedicated", "gpu", TaintEffect.NO_SCHEDULE)));
  private static final CapacityExceeded OVER_LIMIT = new OverLimit("q", ResourceKind.GPU, 4, 4, 1);

  /** Every hook at once; answers with its settings and logs {@code <name>.<hook>}. */
  private static final class Fake
      implements SessionOpenHook,
          JobOrder,
          TaskOrder,
          SubGroupOrder,
          QueueOrder,
          NodePredicate,
          NodeScorer,
          GpuScorer,
          CapacityPolicy,
          AllocationListener {
    private final String name;
    private final List<String> log;
    private int order;
    private FitStatus filter = FitStatus.SUCCESS;
    private double score;
    private Optional<CapacityExceeded> capacity = Optional.empty();

    Fake(String name, List<String> log) {
      this.name = name;
      this.log = log;
    }

    Fake order(int order) {
      this.order = order;
      return this;
    }

    Fake filter(FitStatus filter) {
      this.filter = filter;
      return this;
    }

    Fake score(double score) {
      this.score = score;
      return this;
    }

    Fake capacity(CapacityExceeded error) {
      this.capacity = Optional.of(error);
      return this;
    }

    @Override
    public String name() {
      return name;
    }

    private <T> T logged(String hook, T answer) {
      log.add(name + "." + hook);
      return answer;
    }

    @Override
    public void onSessionOpen(SessionView session) {
      logged("open", session);
    }

    @Override
    public int compareJobs(JobState a, JobState b) {
      return logged("jobs", order);
    }

    @Override
    public int compareTasks(TaskState a, TaskState b) {
      return logged("tasks", order);
    }

    @Override
    public int compareSubGroups(SubGroupProgress a, SubGroupProgress b) {
      return logged("subGroups", order);
    }

    @Override
    public int compareQueues(String queueA, JobState jobA, String queueB, JobState jobB) {
      return logged("queues", order);
    }

    @Override
    public FitStatus filter(TaskState task, NodeState node) {
      return logged("filter", filter);
    }

    @Override
    public void preOrder(TaskState task, List<NodeState> candidates) {
      logged("preOrder", candidates);
    }

    @Override
    public double score(TaskState task, NodeState node) {
      return logged("score", score);
    }

    @Override
    public double scoreGpu(TaskState task, NodeState node, GpuCandidate candidate) {
      return logged("scoreGpu", score);
    }

    @Override
    public Optional<CapacityExceeded> checkJob(JobState job, List<TaskState> tasks) {
      return logged("checkJob", capacity);
    }

    @Override
    public Optional<CapacityExceeded> checkTaskOnNode(
        TaskState task, NodeState node, GpuAmount gpus) {
      return logged("checkTask", capacity);
    }

    @Override
    public void onAllocate(TaskState task, GpuAmount gpus) {
      logged("allocate " + gpus, task);
    }

    @Override
    public void onDeallocate(TaskState task, GpuAmount gpus) {
      logged("deallocate " + gpus, task);
    }
  }

  /** A scorer that declares how its score follows the node index. */
  private record Ordered(String name, IndexOrderedScorer.Order order)
      implements IndexOrderedScorer {
    @Override
    public Order orderFor(TaskState task) {
      return order;
    }

    @Override
    public void preOrder(TaskState task, List<NodeState> candidates) {}

    @Override
    public double score(TaskState task, NodeState node) {
      return 0;
    }
  }

  /** A scorer that declares nothing about the index. */
  private record Plain(String name) implements NodeScorer {
    @Override
    public void preOrder(TaskState task, List<NodeState> candidates) {}

    @Override
    public double score(TaskState task, NodeState node) {
      return 0;
    }
  }

  enum OrderingHook {
    JOBS,
    TASKS,
    SUB_GROUPS,
    QUEUES
  }

  record OrderCase(String name, List<Integer> answers, int expectedSign, List<String> called) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<OrderCase> orderCases() {
    return Stream.of(
        new OrderCase("no plugins: the fallback puts a first", List.of(), -1, List.of()),
        new OrderCase(
            "every plugin ties: the fallback puts a first", List.of(0, 0), -1, List.of("p0", "p1")),
        new OrderCase("the second plugin decides", List.of(0, 1), 1, List.of("p0", "p1")),
        new OrderCase("the first non-zero wins", List.of(1, -1), 1, List.of("p0")),
        new OrderCase(
            "a later plugin overrides the fallback",
            List.of(0, 0, 5),
            1,
            List.of("p0", "p1", "p2")));
  }

  /**
   * Each ordering hook on a pair whose fallback puts {@code a} first: jobs a (older) and b, tasks
   * t0 and t1 (creation order), SubGroups a and b (name), queues qa and qb (name).
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("orderCases")
  void orderingHooksTakeTheFirstNonZeroThenTheFallback(OrderCase c) {
    for (OrderingHook hook : OrderingHook.values()) {
      List<String> log = new ArrayList<>();
      List<Plugin> plugins = new ArrayList<>();
      for (int i = 0; i < c.answers().size(); i++) {
        plugins.add(new Fake("p" + i, log).order(c.answers().get(i)));
      }
      PluginHooks hooks = new PluginHooks(plugins);
      Session session = session(hooks);
      log.clear();

      int result =
          switch (hook) {
            case JOBS -> hooks.compareJobs(session.job("ns/a"), session.job("ns/b"));
            case TASKS -> hooks.compareTasks(session.task("ns/a/t0"), session.task("ns/a/t1"));
            case SUB_GROUPS ->
                hooks.compareSubGroups(
                    new SubGroupProgress(new PodSet("a", 1), false, 0, 1),
                    new SubGroupProgress(new PodSet("b", 1), false, 0, 1));
            case QUEUES ->
                hooks.compareQueues("qa", session.job("ns/a"), "qb", session.job("ns/b"));
          };

      String suffix =
          switch (hook) {
            case JOBS -> ".jobs";
            case TASKS -> ".tasks";
            case SUB_GROUPS -> ".subGroups";
            case QUEUES -> ".queues";
          };
      assertThat(Integer.signum(result)).as(hook.name()).isEqualTo(c.expectedSign());
      assertThat(log).as(hook.name()).isEqualTo(c.called().stream().map(p -> p + suffix).toList());
    }
  }

  @Test
  void jobFallbackIsCreationTimeThenCreationOrder() {
    PluginHooks hooks = new PluginHooks(List.of());
    Session session =
        Session.open(
            Snapshots.of(
                List.of(),
                List.of(Queues.queue("q").build()),
                List.of(
                    Jobs.job("late").createdAt(Snapshots.T0.plusSeconds(1)).build(),
                    Jobs.job("early-second").creationOrder(7).build(),
                    Jobs.job("early-first").creationOrder(3).build())),
            hooks);

    List<JobState> jobs = new ArrayList<>(session.jobs());
    jobs.sort(hooks::compareJobs);

    assertThat(jobs.stream().map(JobState::id).toList())
        .containsExactly("ns/early-first", "ns/early-second", "ns/late");
  }

  record FilterCase(String name, List<FitStatus> answers, FitStatus expected, List<String> called) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<FilterCase> filterCases() {
    return Stream.of(
        new FilterCase("no predicates", List.of(), FitStatus.SUCCESS, List.of()),
        new FilterCase(
            "all pass",
            List.of(FitStatus.SUCCESS, FitStatus.SUCCESS),
            FitStatus.SUCCESS,
            List.of("p0.filter", "p1.filter")),
        new FilterCase(
            "the first failure is returned and stops the rest",
            List.of(FitStatus.SUCCESS, NOT_READY, TAINTED),
            NOT_READY,
            List.of("p0.filter", "p1.filter")),
        new FilterCase(
            "a failure of the first plugin",
            List.of(TAINTED, NOT_READY),
            TAINTED,
            List.of("p0.filter")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("filterCases")
  void predicatesMustAllPass(FilterCase c) {
    List<String> log = new ArrayList<>();
    List<Plugin> plugins = new ArrayList<>();
    for (int i = 0; i < c.answers().size(); i++) {
      plugins.add(new Fake("p" + i, log).filter(c.answers().get(i)));
    }
    PluginHooks hooks = new PluginHooks(plugins);
    Session session = session(hooks);
    log.clear();

    FitStatus result = hooks.filter(session.task("ns/a/t0"), session.node("n1"));

    assertThat(result).isEqualTo(c.expected());
    assertThat(log).isEqualTo(c.called());
  }

  @Test
  void nodeAndGpuScoresAreSummedOverEveryScorer() {
    List<String> log = new ArrayList<>();
    PluginHooks hooks =
        new PluginHooks(
            List.of(
                new Fake("a", log).score(1.5),
                new Fake("b", log).score(-0.25),
                new Fake("c", log).score(10)));
    Session session = session(hooks);
    log.clear();
    TaskState task = session.task("ns/a/t0");
    NodeState node = session.node("n1");

    hooks.preOrderNodes(task, List.of(node));
    double nodeScore = hooks.scoreNode(task, node);
    double gpuScore =
        hooks.scoreGpu(task, node, new GpuCandidate(Optional.empty(), GpuAmount.ZERO, true));

    assertThat(List.of(nodeScore, gpuScore)).containsExactly(11.25, 11.25);
    assertThat(log)
        .containsExactly(
            "a.preOrder",
            "b.preOrder",
            "c.preOrder",
            "a.score",
            "b.score",
            "c.score",
            "a.scoreGpu",
            "b.scoreGpu",
            "c.scoreGpu");
  }

  @Test
  void onlyTheFirstCapacityPluginIsConsulted() {
    List<String> log = new ArrayList<>();
    PluginHooks firstAllows =
        new PluginHooks(List.of(new Fake("a", log), new Fake("b", log).capacity(OVER_LIMIT)));
    PluginHooks firstRefuses =
        new PluginHooks(List.of(new Fake("a", log).capacity(OVER_LIMIT), new Fake("b", log)));
    Session session = session(firstAllows);
    JobState job = session.job("ns/a");
    TaskState task = session.task("ns/a/t0");
    log.clear();

    List<Optional<CapacityExceeded>> results =
        List.of(
            firstAllows.checkJobCapacity(job, job.tasks()),
            firstAllows.checkTaskCapacityOnNode(task, session.node("n1"), GpuAmount.ofDevices(1)),
            firstRefuses.checkJobCapacity(job, job.tasks()),
            firstRefuses.checkTaskCapacityOnNode(task, session.node("n1"), GpuAmount.ofDevices(1)),
            new PluginHooks(List.of()).checkJobCapacity(job, job.tasks()));

    assertThat(results)
        .containsExactly(
            Optional.empty(),
            Optional.empty(),
            Optional.of(OVER_LIMIT),
            Optional.of(OVER_LIMIT),
            Optional.empty());
    assertThat(log).containsExactly("a.checkJob", "a.checkTask", "a.checkJob", "a.checkTask");
  }

  @Test
  void sessionOpenAndListenersReachEveryPluginInOrder() {
    List<String> log = new ArrayList<>();
    PluginHooks hooks = new PluginHooks(List.of(new Fake("a", log), new Fake("b", log)));
    Session session = session(hooks);
    List<String> atOpen = List.copyOf(log);
    log.clear();

    try (Statement statement = session.statement()) {
      statement.allocate(session.task("ns/a/t0"), session.node("n1"), List.of(), GpuAmount.ZERO);
    }

    assertThat(atOpen).containsExactly("a.open", "b.open");
    assertThat(log)
        .containsExactly("a.allocate 1", "b.allocate 1", "a.deallocate 1", "b.deallocate 1");
  }

  record IndexOrderCase(String name, List<NodeScorer> scorers, Optional<IndexOrder> expected) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<IndexOrderCase> indexOrderCases() {
    return Stream.of(
        new IndexOrderCase(
            "no scorers: every node scores the same, so name order, not the index's",
            List.of(),
            Optional.empty()),
        new IndexOrderCase(
            "constant and bin-pack scorers",
            List.of(
                ordered(IndexOrderedScorer.Order.CONSTANT),
                ordered(IndexOrderedScorer.Order.FEWER_FREE_GPUS_FIRST)),
            Optional.of(new IndexOrder(IndexOrder.Key.WHOLE_GPUS, false, false, false, false))),
        new IndexOrderCase(
            "a scorer puts idle fits first",
            List.of(
                ordered(IndexOrderedScorer.Order.FEWER_FREE_GPUS_FIRST),
                ordered(IndexOrderedScorer.Order.IDLE_FIT_FIRST)),
            Optional.of(new IndexOrder(IndexOrder.Key.WHOLE_GPUS, false, true, false, false))),
        new IndexOrderCase(
            "shared GPU fits, idle fits, then bin-packing",
            List.of(
                ordered(IndexOrderedScorer.Order.SHARED_GPU_FIT_FIRST),
                ordered(IndexOrderedScorer.Order.IDLE_FIT_FIRST),
                ordered(IndexOrderedScorer.Order.FEWER_FREE_GPUS_FIRST)),
            Optional.of(new IndexOrder(IndexOrder.Key.WHOLE_GPUS, true, true, false, false))),
        new IndexOrderCase(
            "idle fits, one interconnect domain, then bin-packing",
            List.of(
                ordered(IndexOrderedScorer.Order.IDLE_FIT_FIRST),
                ordered(IndexOrderedScorer.Order.ONE_DOMAIN_FIT_FIRST),
                ordered(IndexOrderedScorer.Order.FEWER_FREE_GPUS_FIRST)),
            Optional.of(new IndexOrder(IndexOrder.Key.WHOLE_GPUS, false, true, true, false))),
        new IndexOrderCase(
            "idle fits, CPU-only nodes, then bin-packing by CPU",
            List.of(
                ordered(IndexOrderedScorer.Order.IDLE_FIT_FIRST),
                ordered(IndexOrderedScorer.Order.CPU_ONLY_NODES_FIRST),
                ordered(IndexOrderedScorer.Order.FEWER_FREE_CPU_FIRST)),
            Optional.of(new IndexOrder(IndexOrder.Key.CPU, false, true, false, true))),
        new IndexOrderCase(
            "two free-resource orders cannot both hold",
            List.of(
                ordered(IndexOrderedScorer.Order.FEWER_FREE_GPUS_FIRST),
                ordered(IndexOrderedScorer.Order.FEWER_FREE_CPU_FIRST)),
            Optional.empty()),
        new IndexOrderCase(
            "a scorer does not follow the index for this task",
            List.of(
                ordered(IndexOrderedScorer.Order.IDLE_FIT_FIRST),
                ordered(IndexOrderedScorer.Order.NONE)),
            Optional.empty()),
        new IndexOrderCase(
            "a scorer declares no index order",
            List.of(ordered(IndexOrderedScorer.Order.CONSTANT), new Plain("plain")),
            Optional.empty()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("indexOrderCases")
  void theIndexOrderAppliesOnlyWhenEveryScorerFollowsIt(IndexOrderCase c) {
    PluginHooks hooks = new PluginHooks(new ArrayList<>(c.scorers()));
    Session session = session(hooks);

    assertThat(hooks.indexOrder(session.task("ns/a/t0"))).isEqualTo(c.expected());
  }

  private static NodeScorer ordered(IndexOrderedScorer.Order order) {
    return new Ordered(order.name(), order);
  }

  /** Jobs a (older, tasks t0 and t1) and b on node n1 with 4 GPUs. */
  private static Session session(PluginHooks hooks) {
    ClusterSnapshot snapshot =
        Snapshots.of(
            List.of(Nodes.node("n1").gpus(4).build()),
            List.of(Queues.queue("qa").build(), Queues.queue("qb").build()),
            List.of(
                Jobs.job("a")
                    .queue("qa")
                    .task(Tasks.task("t0").gpus(1), Tasks.task("t1").gpus(1))
                    .build(),
                Jobs.job("b")
                    .queue("qb")
                    .createdAt(Snapshots.T0.plusSeconds(60))
                    .task(Tasks.task("t0").gpus(1))
                    .build()));
    return Session.open(snapshot, hooks);
  }
}
