package io.gantry.scheduler.sim.spec;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import io.gantry.kubemodel.kai.Preemptibility;
import io.gantry.kubemodel.kai.PriorityClassTable;
import io.gantry.kubemodel.read.Field;
import io.gantry.kubemodel.read.Field.DurationBound;
import io.gantry.kubemodel.read.MapReader;
import io.gantry.kubemodel.read.Namespaces;
import io.gantry.kubemodel.read.ScenarioException;
import io.gantry.kubemodel.read.UniqueNames;
import io.gantry.scheduler.model.QueueHierarchy;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/** Binds the {@code jobs} section. */
final class JobBinder {
  static final int MIN_COUNT = 0;

  private static final ImmutableSet<String> KEYS =
      ImmutableSet.of(
          "name",
          "count",
          "namespace",
          "queue",
          "priorityClass",
          "priority",
          "preemptibility",
          "minMember",
          "minSubGroup",
          "subGroups",
          "topologyConstraint",
          "createdAt",
          "lastStartedAt",
          "preemptionDelay",
          "stalenessGracePeriod",
          "staleSince",
          "replace",
          "terminationGracePeriod",
          "arrival",
          "duration",
          "tasks");

  private JobBinder() {}

  static List<JobSpec> bind(List<Field> items, Catalog catalog) throws ScenarioException {
    ImmutableList.Builder<JobSpec> jobs = ImmutableList.builder();
    UniqueNames names = new UniqueNames("job");
    for (Field item : items) {
      jobs.add(bindJob(item, catalog, names));
    }
    return jobs.build();
  }

  private static JobSpec bindJob(Field item, Catalog catalog, UniqueNames names)
      throws ScenarioException {
    MapReader job = item.asMap(KEYS);
    Field nameField = job.required("name");
    String name = nameField.asNonEmptyString();
    int count = job.intOr("count", 1, MIN_COUNT);
    Optional<Field> namespaceField = job.optional("namespace");
    String namespace =
        namespaceField.isPresent() ? namespaceField.get().asNonEmptyString() : Namespaces.DEFAULT;
    String queue = queue(job.required("queue"), catalog);
    Optional<String> priorityClass = priorityClass(job.optional("priorityClass"));
    OptionalInt priority = job.optInt("priority", Integer.MIN_VALUE);
    if (priorityClass.isPresent() && priority.isPresent()) {
      throw job.required("priority").error("cannot be set together with priorityClass");
    }
    Optional<Field> preemptibilityField = job.optional("preemptibility");
    Optional<Preemptibility> preemptibility =
        preemptibilityField.isPresent()
            ? Optional.of(
                preemptibilityField.get().asEnum(Preemptibility.values(), Preemptibility::k8sName))
            : Optional.empty();
    OptionalInt minMember = job.optInt("minMember", 0);
    OptionalInt minSubGroup = job.optInt("minSubGroup", 0);
    SubGroupTree subGroups = SubGroupTree.bind(job.list("subGroups"), catalog);
    checkMinSubGroup(job, minMember, minSubGroup, subGroups);
    // Tasks before the copies' names: a job without pods is refused before count expands it.
    List<TaskSpec> tasks = tasks(job.required("tasks"), catalog, subGroups);
    for (String expanded : Names.expand(name, count)) {
      names.add(nameField, expanded);
    }

    return new JobSpec(
        name,
        count,
        namespace,
        queue,
        priorityClass,
        priority,
        preemptibility,
        minMember,
        minSubGroup,
        subGroups.subGroups(),
        TopologyConstraintBinder.bind(job.optional("topologyConstraint"), catalog),
        job.optDuration("createdAt", DurationBound.ANY),
        job.optDuration("lastStartedAt", DurationBound.ANY),
        job.optDuration("preemptionDelay", DurationBound.NON_NEGATIVE),
        job.optDuration("stalenessGracePeriod", DurationBound.ANY),
        job.optDuration("staleSince", DurationBound.ANY),
        job.booleanOr("replace", true),
        job.optDuration("terminationGracePeriod", DurationBound.NON_NEGATIVE),
        job.optDuration("arrival", DurationBound.NON_NEGATIVE),
        job.optDuration("duration", DurationBound.POSITIVE),
        tasks,
        item.path(),
        job.line(),
        job.fieldLines());
  }

  private static String queue(Field field, Catalog catalog) throws ScenarioException {
    String queue = field.asNonEmptyString();
    if (!catalog.hasQueue(queue)) {
      throw field.error("unknown queue " + Field.quote(queue));
    }
    Optional<QueueHierarchy.NotLeaf> notLeaf = catalog.notLeaf(queue);
    if (notLeaf.isPresent()) {
      throw field.error(notLeaf.get().describe(Field::quote));
    }
    return queue;
  }

  private static Optional<String> priorityClass(Optional<Field> field) throws ScenarioException {
    if (field.isEmpty()) {
      return Optional.empty();
    }
    String name = field.get().asString();
    if (!PriorityClassTable.KAI_DEFAULTS.classes().containsKey(name)) {
      throw field
          .get()
          .error(
              "unknown priority class "
                  + Field.quote(name)
                  + " (known: "
                  + String.join(", ", PriorityClassTable.KAI_DEFAULTS.classes().keySet())
                  + ")");
    }
    return Optional.of(name);
  }

  private static void checkMinSubGroup(
      MapReader job, OptionalInt minMember, OptionalInt minSubGroup, SubGroupTree subGroups)
      throws ScenarioException {
    if (minSubGroup.isEmpty()) {
      return;
    }
    // minSubGroup with minMember, or without subGroups, breaks KAI's PodGroup rules, which the
    // engine's PodGroupShape applies when the scenario is compiled
    if (minMember.isPresent() || subGroups.subGroups().isEmpty()) {
      return;
    }
    Field field = job.required("minSubGroup");
    if (minSubGroup.getAsInt() > subGroups.rootCount()) {
      throw field.error(
          "must be <= "
              + subGroups.rootCount()
              + " (the number of top-level subgroups), got "
              + minSubGroup.getAsInt());
    }
  }

  private static List<TaskSpec> tasks(Field field, Catalog catalog, SubGroupTree subGroups)
      throws ScenarioException {
    List<Field> items = field.asList();
    if (items.isEmpty()) {
      throw field.error("a job needs at least one task");
    }
    ImmutableList.Builder<TaskSpec> tasks = ImmutableList.builder();
    UniqueNames names = new UniqueNames("task");
    long pods = 0;
    for (Field item : items) {
      TaskSpec task = TaskBinder.bind(item, catalog, subGroups, names);
      pods += task.replicas();
      tasks.add(task);
    }
    if (pods == 0) {
      throw field.error("a job needs at least one task; every entry here has replicas: 0");
    }
    return tasks.build();
  }
}
