package io.gantry.scheduler.sim.spec;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.kubemodel.read.Field;
import io.gantry.kubemodel.read.Field.DurationBound;
import io.gantry.kubemodel.read.MapReader;
import io.gantry.kubemodel.read.ScenarioException;
import io.gantry.kubemodel.read.UniqueNames;
import java.util.List;
import java.util.Optional;

/** Binds the {@code queues} section and checks that the queues form a tree. */
final class QueueBinder {
  private static final ImmutableSet<String> KEYS =
      ImmutableSet.of(
          "name",
          "parent",
          "priority",
          "resources",
          "preemptMinRuntime",
          "reclaimMinRuntime",
          "createdAt");
  private static final ImmutableSet<String> RESOURCE_NAMES =
      ImmutableSet.of("gpu", "cpu", "memory");
  private static final ImmutableSet<String> RESOURCE_KEYS =
      ImmutableSet.of("quota", "overQuotaWeight", "limit");

  // -1 is the Queue CRD's "unlimited" (quota, limit) or "unset" (overQuotaWeight).
  private static final double MIN_RESOURCE_VALUE = -1;

  private QueueBinder() {}

  static List<QueueSpec> bind(String sourceName, List<Field> items) throws ScenarioException {
    ImmutableList.Builder<QueueSpec> queues = ImmutableList.builder();
    UniqueNames names = new UniqueNames("queue");
    for (Field item : items) {
      MapReader queue = item.asMap(KEYS);
      String name = names.take(queue.required("name"));
      queues.add(
          new QueueSpec(
              name,
              queue.optString("parent"),
              queue.intOr("priority", QueueSpec.DEFAULT_PRIORITY, Integer.MIN_VALUE),
              resources(queue.optional("resources")),
              queue.optDuration("preemptMinRuntime", DurationBound.NON_NEGATIVE),
              queue.optDuration("reclaimMinRuntime", DurationBound.NON_NEGATIVE),
              queue.optDuration("createdAt", DurationBound.ANY),
              queue.line(),
              queue.fieldLines()));
    }
    List<QueueSpec> bound = queues.build();
    QueueParentCheck.check(sourceName, bound);
    return bound;
  }

  private static ImmutableSortedMap<String, QueueResourceSpec> resources(Optional<Field> field)
      throws ScenarioException {
    ImmutableSortedMap.Builder<String, QueueResourceSpec> resources =
        ImmutableSortedMap.naturalOrder();
    if (field.isPresent()) {
      for (Field resourceField : field.get().asMap(RESOURCE_NAMES).fields()) {
        MapReader resource = resourceField.asMap(RESOURCE_KEYS);
        resources.put(
            resourceField.key(),
            new QueueResourceSpec(
                resource.optDouble("quota", MIN_RESOURCE_VALUE),
                resource.optDouble("overQuotaWeight", MIN_RESOURCE_VALUE),
                resource.optDouble("limit", MIN_RESOURCE_VALUE)));
      }
    }
    return resources.build();
  }
}
