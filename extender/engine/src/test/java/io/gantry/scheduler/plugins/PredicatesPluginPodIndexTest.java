package io.gantry.scheduler.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.gpusharing.GpuAmount;
import io.gantry.scheduler.framework.FitStatus;
import io.gantry.scheduler.framework.PluginHooks;
import io.gantry.scheduler.framework.Session;
import io.gantry.scheduler.framework.Statement;
import io.gantry.scheduler.framework.fit.PodAntiAffinityConflict;
import io.gantry.scheduler.model.ClusterSnapshot;
import io.gantry.scheduler.model.NodeInfo;
import io.gantry.scheduler.model.placement.Affinity;
import io.gantry.scheduler.model.placement.LabelSelector;
import io.gantry.scheduler.model.placement.PodAffinityTerm;
import io.gantry.scheduler.plugins.predicates.ComparisonCounter;
import io.gantry.scheduler.testing.Jobs;
import io.gantry.scheduler.testing.Nodes;
import io.gantry.scheduler.testing.Queues;
import io.gantry.scheduler.testing.Sessions;
import io.gantry.scheduler.testing.Snapshots;
import io.gantry.scheduler.testing.Tasks;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The predicates plugin keeps its index of placed pods in step with the session: statement
 * operations and rollbacks, moves it was not told about, and the pod being checked itself.
 */
class PredicatesPluginPodIndexTest {
  private static final FitStatus ANTI_AFFINITY =
      FitStatus.unschedulable("predicates", new PodAntiAffinityConflict());
  private static final Affinity AWAY_FROM_WEB =
      new Affinity(
          List.of(),
          List.of(),
          List.of(
              PodAffinityTerm.inOwnNamespace(
                  LabelSelector.matchLabels(Map.of("app", "web")), NodeInfo.HOSTNAME_LABEL)));

  @Test
  void placedPodIsNotCheckedAgainstItself() {
    PredicatesPlugin plugin = new PredicatesPlugin();
    Session session =
        Sessions.open(
            cluster(
                Tasks.task("placed")
                    .gpus(1)
                    .label("app", "web")
                    .affinity(AWAY_FROM_WEB)
                    .running("n1"),
                Tasks.task("twin").gpus(1).label("app", "web").affinity(AWAY_FROM_WEB)),
            plugin);

    assertThat(plugin.filter(session.task("ns/j/placed"), session.node("n1")))
        .isEqualTo(FitStatus.SUCCESS);
    assertThat(plugin.filter(session.task("ns/j/twin"), session.node("n1")))
        .isEqualTo(ANTI_AFFINITY);
  }

  @Test
  void indexFollowsStatementsAndRollbacks() {
    PredicatesPlugin plugin = new PredicatesPlugin();
    Session session = Sessions.open(webAndAwayFromWeb(), plugin);
    Statement statement = session.statement();
    Statement.Checkpoint empty = statement.checkpoint();

    statement.allocate(session.task("ns/j/web"), session.node("n1"), List.of(), GpuAmount.ZERO);
    FitStatus withWeb = plugin.filter(session.task("ns/j/away"), session.node("n1"));
    statement.rollback(empty);
    FitStatus afterRollback = plugin.filter(session.task("ns/j/away"), session.node("n1"));
    statement.pipeline(session.task("ns/j/web"), session.node("n1"), List.of(), GpuAmount.ZERO);
    FitStatus withPipelinedWeb = plugin.filter(session.task("ns/j/away"), session.node("n1"));
    statement.close();
    FitStatus afterDiscard = plugin.filter(session.task("ns/j/away"), session.node("n1"));

    assertThat(List.of(withWeb, afterRollback, withPipelinedWeb, afterDiscard))
        .containsExactly(ANTI_AFFINITY, FitStatus.SUCCESS, ANTI_AFFINITY, FitStatus.SUCCESS);
  }

  @Test
  void movesTheListenerDidNotSeeRebuildTheIndex() {
    // The plugin is not among the session's hooks, so no listener call reaches it.
    PredicatesPlugin plugin = new PredicatesPlugin();
    Session session = Session.open(webAndAwayFromWeb(), new PluginHooks(List.of()));
    plugin.onSessionOpen(session);
    FitStatus before = plugin.filter(session.task("ns/j/away"), session.node("n1"));

    session
        .statement()
        .allocate(session.task("ns/j/web"), session.node("n1"), List.of(), GpuAmount.ZERO);

    assertThat(List.of(before, plugin.filter(session.task("ns/j/away"), session.node("n1"))))
        .containsExactly(FitStatus.SUCCESS, ANTI_AFFINITY);
  }

  @Test
  void comparisonsAreCountedOnTheInjectedCounter() {
    ComparisonCounter comparisons = new ComparisonCounter();
    PredicatesPlugin plugin = new PredicatesPlugin(comparisons);
    Session session = Sessions.open(webAndAwayFromWeb(), plugin);
    session
        .statement()
        .allocate(session.task("ns/j/web"), session.node("n1"), List.of(), GpuAmount.ZERO);
    long afterAllocate = comparisons.count();

    plugin.filter(session.task("ns/j/away"), session.node("n1"));
    plugin.filter(session.task("ns/j/away"), session.node("n2"));

    // Placing web compares it with no selection yet; preparing away's check once fills its one
    // selection from the one pod labelled app=web.
    assertThat(List.of(afterAllocate, comparisons.count())).containsExactly(0L, 1L);
  }

  private static ClusterSnapshot webAndAwayFromWeb() {
    return cluster(
        Tasks.task("web").gpus(1).label("app", "web"),
        Tasks.task("away").gpus(1).affinity(AWAY_FROM_WEB));
  }

  private static ClusterSnapshot cluster(Tasks.Builder... tasks) {
    return Snapshots.of(
        List.of(Nodes.node("n1").gpus(8).build(), Nodes.node("n2").gpus(8).build()),
        List.of(Queues.queue("q").build()),
        List.of(Jobs.job("j").minMember(0).task(tasks).build()));
  }
}
