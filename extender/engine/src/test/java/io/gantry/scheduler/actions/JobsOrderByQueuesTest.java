package io.gantry.scheduler.actions;

import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.scheduler.framework.JobOrder;
import io.gantry.scheduler.framework.JobState;
import io.gantry.scheduler.framework.PluginHooks;
import io.gantry.scheduler.framework.QueueOrder;
import io.gantry.scheduler.framework.Session;
import io.gantry.scheduler.model.JobInfo;
import io.gantry.scheduler.model.QueueInfo;
import io.gantry.scheduler.testing.Jobs;
import io.gantry.scheduler.testing.Queues;
import io.gantry.scheduler.testing.Snapshots;
import io.gantry.scheduler.testing.Tasks;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * {@link JobsOrderByQueues} (kai-reference §4.5): a heap of sibling queues per level, each queue
 * compared with the job it would schedule next; {@code pop} descends from the roots taking the best
 * queue of each level and detaches that path, and {@code finish} puts it back with the queues' new
 * state, so what the allocation changed orders the next pop.
 *
 * <p>The queue order here is a hand-written fake: fewer jobs placed in the queue's subtree first,
 * then the name; jobs are ordered by their name. The tree: {@code A} with leaves {@code a1} and
 * {@code a2}, {@code B} with leaf {@code b1}.
 */
class JobsOrderByQueuesTest {
  private static final List<QueueInfo> TREE =
      List.of(
          Queues.queue("A").build(),
          Queues.queue("B").build(),
          Queues.queue("a1").parent("A").build(),
          Queues.queue("a2").parent("A").build(),
          Queues.queue("b1").parent("B").build());

  /** Fewer jobs placed in the subtree first, then the queue name. */
  private static final class FewestPlacedFirst implements QueueOrder {
    private final Map<String, Integer> placed = new TreeMap<>();
    private final Map<String, String> parents = new TreeMap<>();

    FewestPlacedFirst(List<QueueInfo> queues) {
      queues.forEach(q -> q.parent().ifPresent(p -> parents.put(q.name(), p)));
    }

    @Override
    public String name() {
      return "fewest-placed";
    }

    /** What allocating a job of {@code leaf} does to the queue state: counts up the tree. */
    void place(String leaf) {
      for (String q = leaf; q != null; q = parents.get(q)) {
        placed.merge(q, 1, Integer::sum);
      }
    }

    @Override
    public int compareQueues(String queueA, JobState jobA, String queueB, JobState jobB) {
      int c = Integer.compare(placed.getOrDefault(queueA, 0), placed.getOrDefault(queueB, 0));
      return c != 0 ? c : queueA.compareTo(queueB);
    }
  }

  /** Jobs by name. */
  private enum ByName implements JobOrder {
    INSTANCE;

    @Override
    public int compareJobs(JobState a, JobState b) {
      return a.info().name().compareTo(b.info().name());
    }
  }

  @Test
  void eachLevelTakesItsBestQueueWithTheStateTheLastAllocationLeft() {
    FewestPlacedFirst order = new FewestPlacedFirst(TREE);
    JobsOrderByQueues queue =
        order(
            order,
            job("j2", "a1"),
            job("j1", "a1"),
            job("j3", "a2"),
            job("j5", "b1"),
            job("j4", "b1"));

    List<String> popped = new ArrayList<>();
    JobState job;
    while ((job = queue.pop()) != null) {
      popped.add(job.info().name() + "@" + job.info().queue());
      order.place(job.info().queue());
      queue.finish(job, false);
    }

    // A and B alternate (A first by name); inside A, a1 and a2 alternate until a2 runs dry.
    assertThat(popped).containsExactly("j1@a1", "j4@b1", "j3@a2", "j5@b1", "j2@a1");
  }

  @Test
  void aJobPushedBackCompetesAgainWithItsQueuesNewState() {
    FewestPlacedFirst order = new FewestPlacedFirst(TREE);
    JobsOrderByQueues queue = order(order, job("elastic", "a1"), job("j4", "b1"));

    List<String> popped = new ArrayList<>();
    int elasticPasses = 0;
    JobState job;
    while ((job = queue.pop()) != null) {
      popped.add(job.info().name());
      order.place(job.info().queue());
      boolean elastic = job.info().name().equals("elastic");
      elasticPasses += elastic ? 1 : 0;
      // the elastic job still has pending tasks after each of its first two passes
      queue.finish(job, elastic && elasticPasses < 3);
    }

    // After its first pass A has one placement and B none, so j4 goes before the second pass.
    assertThat(popped).containsExactly("elastic", "j4", "elastic", "elastic");
  }

  @Test
  void aQueueOrderThatIgnoresPlacementsKeepsGoingToTheSameQueue() {
    // Without updates to the state, A (by name) and a1 (by name) win for as long as a1 has jobs.
    FewestPlacedFirst order = new FewestPlacedFirst(TREE);
    JobsOrderByQueues queue =
        order(order, job("j1", "a1"), job("j2", "a1"), job("j3", "a2"), job("j4", "b1"));

    List<String> popped = new ArrayList<>();
    JobState job;
    while ((job = queue.pop()) != null) {
      popped.add(job.info().name());
      queue.finish(job, false);
    }

    assertThat(popped).containsExactly("j1", "j2", "j3", "j4");
  }

  @Test
  void nothingToPopAndFinishingWithoutAPopAreHarmless() {
    JobsOrderByQueues empty = order(new FewestPlacedFirst(TREE));

    empty.finish(null, false);

    assertThat(Optional.ofNullable(empty.pop())).isEmpty();
  }

  private static JobInfo job(String name, String queue) {
    return Jobs.job(name).queue(queue).task(Tasks.task("t0").gpus(1)).build();
  }

  private static JobsOrderByQueues order(FewestPlacedFirst queueOrder, JobInfo... jobs) {
    PluginHooks hooks = new PluginHooks(List.of(queueOrder, ByName.INSTANCE));
    Session session = Session.open(Snapshots.of(List.of(), TREE, List.of(jobs)), hooks);
    return new JobsOrderByQueues(hooks, TREE, session.jobs());
  }
}
