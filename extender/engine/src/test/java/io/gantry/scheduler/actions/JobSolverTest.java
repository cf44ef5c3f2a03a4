package io.gantry.scheduler.actions;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableSortedMap;
import io.gantry.scheduler.api.config.EvictionSettings;
import io.gantry.scheduler.api.config.Placement;
import io.gantry.scheduler.api.config.PluginSetting;
import io.gantry.scheduler.api.config.SearchBudgets;
import io.gantry.scheduler.framework.ActionObserver;
import io.gantry.scheduler.framework.ActionType;
import io.gantry.scheduler.framework.JobState;
import io.gantry.scheduler.framework.Session;
import io.gantry.scheduler.framework.Statement;
import io.gantry.scheduler.framework.TaskState;
import io.gantry.scheduler.model.ClusterSnapshot;
import io.gantry.scheduler.model.JobInfo;
import io.gantry.scheduler.model.TaskStatus;
import io.gantry.scheduler.plugins.PluginRegistry;
import io.gantry.scheduler.testing.FakeTicker;
import io.gantry.scheduler.testing.Jobs;
import io.gantry.scheduler.testing.Nodes;
import io.gantry.scheduler.testing.Queues;
import io.gantry.scheduler.testing.Snapshots;
import io.gantry.scheduler.testing.Tasks;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The victim search for one preemptor (kai-reference §4.11): probes over partial jobs, generators
 * in plugin order, result kinds and budgets. A 4-pod gang in queue qb needs one GPU on each of four
 * nodes, each held by a running 1-GPU job of the over-quota queue qa.
 */
class JobSolverTest {

  private static ClusterSnapshot spreadVictims() {
    List<JobInfo> jobs = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      jobs.add(
          Jobs.job("a-" + i).queue("qa").task(Tasks.task("t").gpus(1).running("n" + i)).build());
    }
    jobs.add(Jobs.job("gang").queue("qb").minMember(4).tasks(4, t -> t.gpus(1)).build());
    List<io.gantry.scheduler.model.NodeInfo> nodes = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      nodes.add(Nodes.node("n" + i).gpus(1).build());
    }
    return Snapshots.of(
        nodes,
        List.of(Queues.queue("qa").gpu(0, 1, -1).build(), Queues.queue("qb").gpu(4, 1, -1).build()),
        jobs);
  }

  private static Session open(ClusterSnapshot snapshot, Map<String, PluginSetting> plugins) {
    return Session.open(snapshot, new PluginRegistry().build(plugins, Placement.DEFAULTS));
  }

  private static JobSolver.Outcome solve(Session session, FakeTicker ticker, SearchBudgets limits) {
    JobState gang = session.job("ns/gang");
    ScenarioSimulator simulator =
        new ScenarioSimulator(
            session,
            ActionType.RECLAIM,
            true,
            (preemptor, victims) -> v -> "evicted",
            s -> session.hooks().validScenario(ActionType.RECLAIM, s));
    session.hooks().onJobSolutionStart(ActionType.RECLAIM, gang);
    SearchBudget budget = SearchBudget.forAction(ticker, limits, "reclaim");
    return new JobSolver(
            session,
            budget.beginJob(),
            simulator,
            () -> VictimJobs.of(session, gang, v -> !v.info().queue().equals(gang.info().queue())),
            "reclaim",
            ActionObserver.NONE)
        .solve(gang);
  }

  @Test
  void aGangSpreadOverNodesIsSolvedWithOneVictimPerNode() {
    Session session = open(spreadVictims(), Map.of());

    JobSolver.Outcome outcome = solve(session, new FakeTicker(), SearchBudgets.DEFAULTS);

    assertThat(outcome.result()).isEqualTo(SearchResult.SOLVED);
    Statement statement = outcome.statement().orElseThrow();
    try {
      assertThat(session.job("ns/gang").tasks())
          .extracting(TaskState::status)
          .containsOnly(TaskStatus.PIPELINED);
      assertThat(session.jobs().stream().filter(j -> j.info().queue().equals("qa")))
          .allSatisfy(j -> assertThat(j.tasks().get(0).status()).isEqualTo(TaskStatus.RELEASING));
    } finally {
      statement.close();
    }
    // closing the statement undid the whole solution
    assertThat(session.task("ns/a-0/t").status()).isEqualTo(TaskStatus.RUNNING);
  }

  @Test
  void withNoGeneratorEnabledTheSearchSaysSo() {
    PluginSetting off = new PluginSetting(Optional.of(false), ImmutableSortedMap.of());
    Session session =
        open(spreadVictims(), Map.of("sg-nodelocalgreedy", off, "sg-multinodegang", off));

    assertThat(solve(session, new FakeTicker(), SearchBudgets.DEFAULTS).result())
        .isEqualTo(SearchResult.NO_GENERATOR);
  }

  @Test
  void probesLetTheNodeLocalGeneratorFreeOneNodeAtATime() {
    // each node-local scenario frees one node; the recorded victims of each successful partial
    // probe (1, 2, then 3 of the 4 pods) carry the gang to all four
    PluginSetting off = new PluginSetting(Optional.of(false), ImmutableSortedMap.of());
    Session session = open(spreadVictims(), Map.of("sg-multinodegang", off));

    JobSolver.Outcome outcome = solve(session, new FakeTicker(), SearchBudgets.DEFAULTS);

    assertThat(outcome.result()).isEqualTo(SearchResult.SOLVED);
    outcome.statement().orElseThrow().close();
  }

  @Test
  void aJobNoVictimCanHelpExhaustsTheGenerators() {
    ClusterSnapshot snapshot =
        Snapshots.of(
            List.of(Nodes.node("n0").gpus(1).build()),
            List.of(
                Queues.queue("qa").gpu(0, 1, -1).build(), Queues.queue("qb").gpu(4, 1, -1).build()),
            List.of(
                Jobs.job("a-0").queue("qa").task(Tasks.task("t").gpus(1).running("n0")).build(),
                Jobs.job("gang").queue("qb").minMember(2).tasks(2, t -> t.gpus(1)).build()));
    Session session = open(snapshot, Map.of());

    assertThat(solve(session, new FakeTicker(), SearchBudgets.DEFAULTS).result())
        .isEqualTo(SearchResult.GENERATORS_EXHAUSTED);
    assertThat(session.task("ns/a-0/t").status()).isEqualTo(TaskStatus.RUNNING);
  }

  @Test
  void aJobWhoseTimeRunsOutStopsWithDeadlineExhausted() {
    Session session = open(spreadVictims(), Map.of());
    // every read of the clock takes a second; the job may search for two
    SearchBudgets tight =
        new SearchBudgets(
            ImmutableSortedMap.of(), Duration.ofSeconds(2), Duration.ZERO, ImmutableSortedMap.of());

    JobSolver.Outcome outcome = solve(session, new FakeTicker(Duration.ofSeconds(1)), tight);

    assertThat(outcome.result()).isEqualTo(SearchResult.DEADLINE_EXHAUSTED);
    assertThat(outcome.result().stopsAction()).isTrue();
    assertThat(session.task("ns/a-0/t").status()).isEqualTo(TaskStatus.RUNNING);
  }

  @Test
  void anActionWhoseTimeIsSpentAttemptsNoMoreJobs() {
    FakeTicker ticker = new FakeTicker(Duration.ofSeconds(1));
    SearchBudgets tight =
        new SearchBudgets(
            ImmutableSortedMap.of(SearchBudgets.DEFAULT, Duration.ofSeconds(1)),
            Duration.ZERO,
            Duration.ZERO,
            ImmutableSortedMap.of());
    EvictionSettings settings = new EvictionSettings(Duration.ofSeconds(60), 16, true, tight);
    Session session = open(spreadVictims(), Map.of());

    new ReclaimAction(new ActionContext(settings, Placement.DEFAULTS, ticker)).execute(session);

    assertThat(session.decisions()).isEmpty();
  }
}
