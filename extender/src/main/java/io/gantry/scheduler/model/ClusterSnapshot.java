package io.gantry.scheduler.model;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableListMultimap;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.Maps;
import java.time.Instant;
import java.util.Optional;

/**
 * Everything one scheduling cycle looks at. Nodes are sorted by name; queues and jobs keep source
 * order (which is also their tie-breaking order).
 */
public record ClusterSnapshot(
    Instant now,
    ImmutableList<NodeInfo> nodes,
    ImmutableList<QueueInfo> queues,
    ImmutableList<JobInfo> jobs) {

  public ClusterSnapshot {
    requireNonNull(now, "now is null");
    requireNonNull(nodes, "nodes is null");
    requireNonNull(queues, "queues is null");
    requireNonNull(jobs, "jobs is null");
  }

  public ImmutableMap<String, QueueInfo> queuesByName() {
    return Maps.uniqueIndex(queues, QueueInfo::name);
  }

  public ImmutableListMultimap<String, QueueInfo> childrenByParent() {
    ImmutableListMultimap.Builder<String, QueueInfo> b = ImmutableListMultimap.builder();
    for (QueueInfo q : queues) {
      q.parent().ifPresent(p -> b.put(p, q));
    }
    return b.build();
  }

  public Optional<QueueInfo> queue(String name) {
    return queues.stream().filter(q -> q.name().equals(name)).findFirst();
  }
}
