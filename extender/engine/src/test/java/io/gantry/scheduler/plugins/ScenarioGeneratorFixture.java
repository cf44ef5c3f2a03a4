package io.gantry.scheduler.plugins;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import io.gantry.scheduler.framework.AccumulatedScenario;
import io.gantry.scheduler.framework.JobState;
import io.gantry.scheduler.framework.Session;
import io.gantry.scheduler.framework.TaskState;
import io.gantry.scheduler.framework.VictimBatch;
import io.gantry.scheduler.model.JobInfo;
import io.gantry.scheduler.model.NodeInfo;
import io.gantry.scheduler.testing.Queues;
import io.gantry.scheduler.testing.Sessions;
import io.gantry.scheduler.testing.Snapshots;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** Accumulated scenarios over a hand-built session, for the generator plugins' tests. */
final class ScenarioGeneratorFixture {
  private ScenarioGeneratorFixture() {}

  static Session session(List<NodeInfo> nodes, List<JobInfo> jobs) {
    return Sessions.openDefault(Snapshots.of(nodes, List.of(Queues.queue("q").build()), jobs));
  }

  /** Each listed job one whole batch, in order. */
  static AccumulatedScenario base(
      Session s,
      String preemptor,
      List<String> recordedJobs,
      List<String> batchJobs,
      Set<String> feasible) {
    JobState job = s.job(preemptor);
    List<TaskState> recorded = new ArrayList<>();
    for (String id : recordedJobs) {
      recorded.addAll(s.job(id).tasks());
    }
    List<VictimBatch> batches = new ArrayList<>();
    for (String id : batchJobs) {
      batches.add(new VictimBatch(s.job(id), s.job(id).tasks()));
    }
    return new AccumulatedScenario(
        job,
        ImmutableList.copyOf(job.tasks()),
        ImmutableList.copyOf(recorded),
        ImmutableList.copyOf(batches),
        ImmutableSet.copyOf(feasible));
  }

  static List<List<String>> ids(List<List<TaskState>> scenarios) {
    return scenarios.stream().map(l -> l.stream().map(TaskState::id).toList()).toList();
  }
}
