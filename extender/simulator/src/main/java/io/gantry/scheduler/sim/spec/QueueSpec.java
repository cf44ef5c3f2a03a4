package io.gantry.scheduler.sim.spec;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.scheduler.model.QueueHierarchy;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * A Queue object.
 *
 * @param resources keyed {@code gpu}, {@code cpu} (millicores) and {@code memory} (MB); a missing
 *     key is a resource the queue does not mention
 * @param createdAt relative to the start of the simulation
 * @param fieldLines each key present in the YAML mapping and its line
 */
public record QueueSpec(
    String name,
    Optional<String> parent,
    int priority,
    ImmutableSortedMap<String, QueueResourceSpec> resources,
    Optional<Duration> preemptMinRuntime,
    Optional<Duration> reclaimMinRuntime,
    Optional<Duration> createdAt,
    int line,
    ImmutableSortedMap<String, Integer> fieldLines) {
  public static final int DEFAULT_PRIORITY = 100;

  public QueueSpec {
    requireNonNull(name, "name is null");
    requireNonNull(parent, "parent is null");
    requireNonNull(resources, "resources is null");
    requireNonNull(preemptMinRuntime, "preemptMinRuntime is null");
    requireNonNull(reclaimMinRuntime, "reclaimMinRuntime is null");
    requireNonNull(createdAt, "createdAt is null");
    requireNonNull(fieldLines, "fieldLines is null");
  }

  /** The queues' hierarchy, in file order (names are unique once bound). */
  static QueueHierarchy hierarchy(List<QueueSpec> queues) {
    ImmutableMap.Builder<String, Optional<String>> parents = ImmutableMap.builder();
    for (QueueSpec queue : queues) {
      parents.put(queue.name(), queue.parent());
    }
    return new QueueHierarchy(parents.buildOrThrow());
  }
}
