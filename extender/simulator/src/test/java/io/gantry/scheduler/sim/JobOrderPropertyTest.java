package io.gantry.scheduler.sim;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableList;
import io.gantry.kubemodel.cel.CelDeviceSelectors;
import io.gantry.kubemodel.read.ScenarioException;
import io.gantry.scheduler.api.result.explain.OrderedJob;
import io.gantry.scheduler.api.result.explain.PendingJobOrder;
import io.gantry.scheduler.api.result.explain.QueueStanding;
import io.gantry.scheduler.cycle.CycleListener;
import io.gantry.scheduler.cycle.Explainer;
import io.gantry.scheduler.cycle.SchedulerWiring;
import io.gantry.scheduler.sim.RandomWorlds.World;
import io.gantry.scheduler.sim.spec.ScenarioLoader;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The job order that {@code /get-job-order} and {@code gantry queues} report is the one allocate
 * uses, on random worlds: allocate tries the same jobs, the first it tries is the first of the
 * global order, and it tries each queue's jobs in exactly that queue's reported order (placements
 * change only how queues interleave). Allocate's tries are heard through {@link
 * CycleListener#jobTried}, a job pushed back for more tasks counted at its first try.
 */
class JobOrderPropertyTest {
  private static final SchedulerWiring WIRING = new SchedulerWiring(new CelDeviceSelectors());

  @Provide
  Arbitrary<World> worlds() {
    return RandomWorlds.worlds();
  }

  @Property(tries = 300)
  void theReportedOrderIsTheOrderAllocateTriesJobsIn(@ForAll("worlds") World world)
      throws ScenarioException {
    ScenarioStart start = ScenarioStart.of(ScenarioLoader.parse("random.yaml", world.yaml()));
    Explainer explainer = WIRING.explainer(start.config());
    PendingJobOrder reported = explainer.jobOrder(start.snapshot());

    Set<String> tried = new LinkedHashSet<>();
    WIRING
        .cycle(start.config())
        .run(
            start.snapshot(),
            new CycleListener() {
              @Override
              public void jobTried(String action, String jobId) {
                assertThat(action).isEqualTo("allocate");
                tried.add(jobId);
              }
            });

    List<String> global = reported.global().stream().map(OrderedJob::jobId).toList();
    assertThat(tried).as("the jobs allocate tries").containsExactlyInAnyOrderElementsOf(global);
    if (!global.isEmpty()) {
      assertThat(tried.iterator().next())
          .as("the first job allocate tries")
          .isEqualTo(global.get(0));
    }
    Map<String, String> queueOf = new TreeMap<>();
    reported.global().forEach(j -> queueOf.put(j.jobId(), j.queue()));
    Map<String, List<String>> triedByQueue = new TreeMap<>();
    tried.forEach(
        id -> triedByQueue.computeIfAbsent(queueOf.get(id), q -> new ArrayList<>()).add(id));
    reported
        .byQueue()
        .forEach(
            (queue, jobs) ->
                assertThat(triedByQueue.get(queue))
                    .as("queue %s", queue)
                    .containsExactlyElementsOf(jobs.stream().map(OrderedJob::jobId).toList()));

    // gantry queues names each queue's first waiting jobs in the same order
    List<QueueStanding> standings = explainer.queues(start.snapshot());
    assertThat(standings).isNotEmpty();
    for (QueueStanding q : standings) {
      boolean leaf = standings.stream().noneMatch(c -> c.parent().equals(Optional.of(q.name())));
      List<String> order =
          reported.byQueue().getOrDefault(q.name(), ImmutableList.of()).stream()
              .map(OrderedJob::jobId)
              .limit(Explainer.FIRST_PENDING)
              .toList();
      if (leaf) {
        assertThat(q.firstPending()).as("queue %s", q.name()).containsExactlyElementsOf(order);
      }
    }
  }
}
