package io.gantry.scheduler.testing;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.model.ClusterSnapshot;
import io.gantry.scheduler.model.JobInfo;
import io.gantry.scheduler.model.NodeInfo;
import io.gantry.scheduler.model.QueueInfo;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;

/**
 * Builds {@link ClusterSnapshot}s at {@link #T0}: nodes sorted by name (as the snapshot requires);
 * queues and jobs in the given order, which is also their creation order where none was set.
 */
public final class Snapshots {
  public static final Instant T0 = Instant.parse("2025-01-01T00:00:00Z");

  /** Creation order not set by the test: the position in the snapshot is used. */
  static final long UNSET = -1;

  private Snapshots() {}

  public static ClusterSnapshot of(
      List<NodeInfo> nodes, List<QueueInfo> queues, List<JobInfo> jobs) {
    ImmutableList.Builder<QueueInfo> q = ImmutableList.builder();
    for (int i = 0; i < queues.size(); i++) {
      QueueInfo info = queues.get(i);
      q.add(
          info.creationOrder() != UNSET
              ? info
              : new QueueInfo(
                  info.name(),
                  info.parent(),
                  info.priority(),
                  info.gpu(),
                  info.cpu(),
                  info.memory(),
                  info.preemptMinRuntime(),
                  info.reclaimMinRuntime(),
                  i));
    }
    ImmutableList.Builder<JobInfo> j = ImmutableList.builder();
    for (int i = 0; i < jobs.size(); i++) {
      JobInfo info = jobs.get(i);
      j.add(
          info.creationOrder() != UNSET
              ? info
              : new JobInfo(
                  info.id(),
                  info.name(),
                  info.namespace(),
                  info.queue(),
                  info.priority(),
                  info.preemptible(),
                  info.createdAt(),
                  i,
                  info.root(),
                  info.tasks(),
                  info.lifecycle()));
    }
    return new ClusterSnapshot(
        T0,
        ImmutableList.sortedCopyOf(Comparator.comparing(NodeInfo::name), nodes),
        q.build(),
        j.build());
  }
}
