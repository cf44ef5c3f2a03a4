package io.gantry.scheduler.plugins;

import io.gantry.scheduler.framework.Plugin;
import io.gantry.scheduler.framework.Session;
import io.gantry.scheduler.testing.Jobs;
import io.gantry.scheduler.testing.Nodes;
import io.gantry.scheduler.testing.Queues;
import io.gantry.scheduler.testing.Sessions;
import io.gantry.scheduler.testing.Snapshots;
import io.gantry.scheduler.testing.Tasks;
import java.util.List;

/**
 * A 3-GPU node with two shared GPUs (0.5 and 0.25 used), one free device, and a pending fraction.
 */
final class GpuScorerFixture {
  private GpuScorerFixture() {}

  static Session session(Plugin plugin) {
    return session(0.5, plugin);
  }

  static Session session(double fraction, Plugin plugin) {
    return Sessions.open(
        Snapshots.of(
            List.of(Nodes.node("n1").gpus(3).build()),
            List.of(Queues.queue("q").build()),
            List.of(
                Jobs.job("busy")
                    .minMember(0)
                    .task(
                        Tasks.task("half")
                            .gpuFraction(0.5)
                            .running("n1")
                            .onGpuGroups(0.5, "g-half"),
                        Tasks.task("quarter")
                            .gpuFraction(0.25)
                            .running("n1")
                            .onGpuGroups(0.25, "g-quarter"))
                    .build(),
                Jobs.job("p").task(Tasks.task("t").gpuFraction(fraction)).build())),
        plugin);
  }
}
