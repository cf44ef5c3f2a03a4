package io.gantry.kubemodel.kai.grouping;

import static java.util.Objects.requireNonNull;

import io.gantry.kubemodel.kai.PriorityClassTable;
import io.gantry.kubemodel.kai.QueueAssignment;

/**
 * The cluster facts and podgrouper settings grouping depends on.
 *
 * @param priorityClasses the PriorityClasses that exist: a class name counts only when it does
 * @param knativeGangSchedule KAI's {@code --knative-gang-schedule} (default true): a Knative
 *     revision is one gang rather than one PodGroup per pod
 */
public record GroupingConfig(
    QueueAssignment queues,
    PriorityClassTable priorityClasses,
    WorkloadTypeDefaults typeDefaults,
    boolean knativeGangSchedule) {
  public GroupingConfig {
    requireNonNull(queues, "queues is null");
    requireNonNull(priorityClasses, "priorityClasses is null");
    requireNonNull(typeDefaults, "typeDefaults is null");
  }

  /** KAI's defaults: its queue label, its four priority classes, no per-type defaults. */
  public static GroupingConfig kaiDefaults() {
    return new GroupingConfig(
        QueueAssignment.kaiDefaults(),
        PriorityClassTable.KAI_DEFAULTS,
        WorkloadTypeDefaults.NONE,
        true);
  }
}
