package io.gantry.scheduler.sim;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.model.JobInfo;
import io.gantry.scheduler.model.JobLifecycle;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One job of the simulated world: the PodGroup's fixed fields, its timestamps (which the engine
 * updates cycle by cycle, as KAI's annotations), and its tasks now.
 */
final class SimJob {
  final JobInfo template;
  final String fileName;
  final Instant arrival;
  final Optional<Duration> duration;
  final boolean replace;
  final Duration terminationGracePeriod;
  final List<SimTask> tasks = new ArrayList<>();

  /** The PodGroup's timestamps as the last cycle left them. */
  JobLifecycle lifecycle;

  SimJob(
      JobInfo template,
      String fileName,
      Instant arrival,
      Optional<Duration> duration,
      boolean replace,
      Duration terminationGracePeriod) {
    this.template = template;
    this.fileName = fileName;
    this.arrival = arrival;
    this.duration = duration;
    this.replace = replace;
    this.terminationGracePeriod = terminationGracePeriod;
    this.lifecycle = template.lifecycle();
  }

  JobInfo current() {
    return template.with(
        tasks.stream().map(SimTask::current).collect(ImmutableList.toImmutableList()), lifecycle);
  }
}
