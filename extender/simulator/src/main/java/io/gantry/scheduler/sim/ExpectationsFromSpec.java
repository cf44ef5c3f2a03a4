package io.gantry.scheduler.sim;

import com.google.common.collect.ImmutableSortedMap;
import io.gantry.scheduler.sim.report.Expectations;
import io.gantry.scheduler.sim.report.JobExpectation;
import io.gantry.scheduler.sim.report.NodeExpectation;
import io.gantry.scheduler.sim.report.QueueExpectation;
import io.gantry.scheduler.sim.report.TaskExpectation;
import io.gantry.scheduler.sim.spec.ExpectSpec;

/** The {@code expect:} block of a scenario file as the checker's values. */
final class ExpectationsFromSpec {
  private ExpectationsFromSpec() {}

  static Expectations of(ExpectSpec e) {
    ImmutableSortedMap.Builder<String, JobExpectation> jobs = ImmutableSortedMap.naturalOrder();
    e.jobs()
        .forEach(
            (k, v) ->
                jobs.put(
                    k,
                    new JobExpectation(
                        v.status(), v.nodes(), v.taskStatuses(), v.messageContains())));
    ImmutableSortedMap.Builder<String, TaskExpectation> tasks = ImmutableSortedMap.naturalOrder();
    e.tasks()
        .forEach(
            (k, v) ->
                tasks.put(
                    k,
                    new TaskExpectation(
                        v.status(),
                        v.node(),
                        v.gpuPortion(),
                        v.sharesGpuWith(),
                        v.messageContains())));
    ImmutableSortedMap.Builder<String, QueueExpectation> queues = ImmutableSortedMap.naturalOrder();
    e.queues().forEach((k, v) -> queues.put(k, new QueueExpectation(v.fairShare(), v.allocated())));
    ImmutableSortedMap.Builder<String, NodeExpectation> nodes = ImmutableSortedMap.naturalOrder();
    e.nodes().forEach((k, v) -> nodes.put(k, new NodeExpectation(v.idleGpus(), v.releasingGpus())));
    return new Expectations(jobs.build(), tasks.build(), queues.build(), nodes.build());
  }
}
