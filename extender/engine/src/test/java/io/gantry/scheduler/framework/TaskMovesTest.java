package io.gantry.scheduler.framework;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.collect.ImmutableList;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.scheduler.model.ClusterSnapshot;
import io.gantry.scheduler.model.TaskStatus;
import io.gantry.scheduler.testing.Jobs;
import io.gantry.scheduler.testing.Nodes;
import io.gantry.scheduler.testing.Queues;
import io.gantry.scheduler.testing.Sessions;
import io.gantry.scheduler.testing.Snapshots;
import io.gantry.scheduler.testing.Tasks;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The move state machine: listeners hear of moves only between placing the snapshot's tasks and
 * removing the pipelined ones, every move bumps the placement version, a releasing task pipelined
 * away keeps its footprint, and pipelining away a task that is not releasing is refused.
 */
class TaskMovesTest {
  /** What the listeners heard, one line a move. */
  private final List<String> heard = new ArrayList<>();

  private final AllocationListener listener =
      new AllocationListener() {
        @Override
        public String name() {
          return "recorder";
        }

        @Override
        public void onAllocate(TaskState task, GpuAmount gpus) {
          heard.add("+" + task.id() + " " + gpus);
        }

        @Override
        public void onDeallocate(TaskState task, GpuAmount gpus) {
          heard.add("-" + task.id() + " " + gpus);
        }
      };

  private final ClusterSnapshot snapshot =
      Snapshots.of(
          List.of(Nodes.node("n1").gpus(4).build(), Nodes.node("n2").gpus(4).build()),
          List.of(Queues.queue("q").build()),
          List.of(
              Jobs.job("r").queue("q").task(Tasks.task("t").gpus(2).running("n1")).build(),
              Jobs.job("x").queue("q").task(Tasks.task("t").gpus(2).releasing("n1")).build(),
              Jobs.job("p").queue("q").task(Tasks.task("t").gpus(1)).build()));
  private final SessionState state = new SessionState(snapshot);
  private final TaskMoves moves =
      new TaskMoves(state, new QuotaGpuLedger(snapshot), new PluginHooks(List.of(listener)));

  private static TaskPlacement on(TaskStatus status, String node) {
    return new TaskPlacement(
        status, Optional.of(node), ImmutableList.of(), GpuAmount.ZERO, null, Optional.empty());
  }

  private static TaskPlacement pipelinedAwayFrom(TaskPlacement current, String node) {
    return new TaskPlacement(
        TaskStatus.PIPELINED,
        Optional.of(node),
        ImmutableList.of(),
        GpuAmount.ZERO,
        null,
        Optional.of(current));
  }

  @Test
  void placingTheSnapshotChargesNodesSilentlyAndLaterMovesAreHeard() {
    moves.placeSnapshotTasks();
    long version = moves.placementVersion();
    TaskState pending = state.task("ns/p/t");

    moves.move(pending, on(TaskStatus.ALLOCATED, "n2"));

    assertThat(state.node("n1").releasingWholeGpus()).isEqualTo(2);
    assertThat(state.node("n2").idleWholeGpus()).isEqualTo(3);
    assertThat(moves.placementVersion()).isEqualTo(version + 1);
    assertThat(heard).containsExactly("+ns/p/t " + GpuAmount.ofDevices(1));
  }

  @Test
  void aReleasingTaskPipelinedAwayKeepsItsFootprintUntilItComesBack() {
    moves.placeSnapshotTasks();
    TaskState releasing = state.task("ns/x/t");
    TaskPlacement releasingPlace = releasing.placement();

    moves.move(releasing, pipelinedAwayFrom(releasingPlace, "n2"));
    assertThat(releasing.placement().evictedFrom()).contains(releasingPlace);
    assertThat(state.node("n1").releasingWholeGpus()).isEqualTo(2);

    moves.move(releasing, releasingPlace);
    assertThat(releasing.status()).isEqualTo(TaskStatus.RELEASING);
    assertThat(state.node("n2").idleWholeGpus()).isEqualTo(4);
  }

  @Test
  void pipeliningAwayATaskThatIsNotReleasingIsRefused() {
    moves.placeSnapshotTasks();
    TaskState running = state.task("ns/r/t");

    assertThatThrownBy(() -> moves.move(running, pipelinedAwayFrom(running.placement(), "n2")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("only a releasing task can be pipelined away: ns/r/t");
  }

  @Test
  void removingPipelinedTasksFreesTheirNodesWithoutTellingTheListeners() {
    moves.placeSnapshotTasks();
    TaskState pending = state.task("ns/p/t");
    Sessions.NodeView before = Sessions.NodeView.of(state.node("n1"));
    moves.move(pending, on(TaskStatus.PIPELINED, "n1"));
    heard.clear();

    moves.removePipelined();

    assertThat(pending.status()).isEqualTo(TaskStatus.PENDING);
    assertThat(Sessions.NodeView.of(state.node("n1"))).isEqualTo(before);
    assertThat(heard).isEmpty();
  }
}
