package io.gantry.scheduler.sim.spec;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.kubemodel.kai.Preemptibility;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A job entry (one PodGroup); with {@code count} N it stands for N copies. Times are relative to
 * the start of the simulation.
 *
 * @param field where the entry is in the file ({@code jobs[2]}, or {@code workloads[0]} for the
 *     PodGroups of a workload), for errors found after loading
 * @param fieldLines each key present in the YAML mapping and its line
 */
public record JobSpec(
    String name,
    int count,
    String namespace,
    String queue,
    Optional<String> priorityClass,
    OptionalInt priority,
    Optional<Preemptibility> preemptibility,
    OptionalInt minMember,
    OptionalInt minSubGroup,
    List<SubGroupSpec> subGroups,
    Optional<TopologyConstraintSpec> topologyConstraint,
    Optional<Duration> createdAt,
    Optional<Duration> lastStartedAt,
    Optional<Duration> preemptionDelay,
    Optional<Duration> stalenessGracePeriod,
    Optional<Duration> staleSince,
    boolean replace,
    Optional<Duration> terminationGracePeriod,
    Optional<Duration> arrival,
    Optional<Duration> duration,
    List<TaskSpec> tasks,
    String field,
    int line,
    ImmutableSortedMap<String, Integer> fieldLines) {

  public JobSpec {
    requireNonNull(name, "name is null");
    requireNonNull(namespace, "namespace is null");
    requireNonNull(queue, "queue is null");
    requireNonNull(priorityClass, "priorityClass is null");
    requireNonNull(priority, "priority is null");
    requireNonNull(preemptibility, "preemptibility is null");
    requireNonNull(minMember, "minMember is null");
    requireNonNull(minSubGroup, "minSubGroup is null");
    subGroups = ImmutableList.copyOf(requireNonNull(subGroups, "subGroups is null"));
    requireNonNull(topologyConstraint, "topologyConstraint is null");
    requireNonNull(createdAt, "createdAt is null");
    requireNonNull(lastStartedAt, "lastStartedAt is null");
    requireNonNull(preemptionDelay, "preemptionDelay is null");
    requireNonNull(stalenessGracePeriod, "stalenessGracePeriod is null");
    requireNonNull(staleSince, "staleSince is null");
    requireNonNull(terminationGracePeriod, "terminationGracePeriod is null");
    requireNonNull(arrival, "arrival is null");
    requireNonNull(duration, "duration is null");
    tasks = ImmutableList.copyOf(requireNonNull(tasks, "tasks is null"));
    requireNonNull(field, "field is null");
    requireNonNull(fieldLines, "fieldLines is null");
  }

  /** The names of the jobs this entry stands for: {@code name} alone, or {@code name-0 …}. */
  public List<String> expandedNames() {
    return Names.expand(name, count);
  }
}
