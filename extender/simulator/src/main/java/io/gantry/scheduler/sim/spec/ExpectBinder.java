package io.gantry.scheduler.sim.spec;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.kubemodel.read.Field;
import io.gantry.kubemodel.read.MapReader;
import io.gantry.kubemodel.read.ScenarioException;
import io.gantry.scheduler.sim.expect.Expectations;
import io.gantry.scheduler.sim.expect.JobExpectation;
import io.gantry.scheduler.sim.expect.NodeExpectation;
import io.gantry.scheduler.sim.expect.QueueExpectation;
import io.gantry.scheduler.sim.expect.TaskExpectation;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeSet;

/** Binds the {@code expect} section; every key must name an object the scenario creates. */
final class ExpectBinder {
  private static final ImmutableSet<String> KEYS =
      ImmutableSet.of("jobs", "tasks", "queues", "nodes");
  private static final ImmutableSet<String> JOB_KEYS =
      ImmutableSet.of("status", "nodes", "taskStatuses", "messageContains");
  private static final ImmutableSet<String> TASK_KEYS =
      ImmutableSet.of(
          "status", "node", "gpuPortion", "sharesGpuWith", "messageContains", "gpuDevices");
  private static final ImmutableSet<String> QUEUE_KEYS = ImmutableSet.of("fairShare", "allocated");
  private static final ImmutableSet<String> NODE_KEYS =
      ImmutableSet.of("idleGpus", "releasingGpus");

  private final Catalog catalog;
  private final ImmutableMap<String, JobSpec> jobsByName;
  private final List<JobSpec> jobs;

  private ExpectBinder(Catalog catalog, List<JobSpec> jobs) {
    this.catalog = catalog;
    this.jobs = jobs;
    Map<String, JobSpec> byName = new LinkedHashMap<>();
    for (JobSpec job : jobs) {
      for (String name : job.expandedNames()) {
        byName.put(name, job);
      }
    }
    this.jobsByName = ImmutableMap.copyOf(byName);
  }

  static Expectations bind(Field field, Catalog catalog, List<JobSpec> jobs)
      throws ScenarioException {
    MapReader expect = field.asMap(KEYS);
    ExpectBinder binder = new ExpectBinder(catalog, jobs);
    ImmutableSortedMap.Builder<String, JobExpectation> jobExpects =
        ImmutableSortedMap.naturalOrder();
    for (Field entry : entries(expect, "jobs")) {
      jobExpects.put(entry.key(), binder.job(entry));
    }
    ImmutableSortedMap.Builder<String, TaskExpectation> taskExpects =
        ImmutableSortedMap.naturalOrder();
    for (Field entry : entries(expect, "tasks")) {
      taskExpects.put(entry.key(), binder.task(entry));
    }
    ImmutableSortedMap.Builder<String, QueueExpectation> queueExpects =
        ImmutableSortedMap.naturalOrder();
    for (Field entry : entries(expect, "queues")) {
      queueExpects.put(entry.key(), binder.queue(entry));
    }
    ImmutableSortedMap.Builder<String, NodeExpectation> nodeExpects =
        ImmutableSortedMap.naturalOrder();
    for (Field entry : entries(expect, "nodes")) {
      nodeExpects.put(entry.key(), binder.node(entry));
    }
    return new Expectations(
        jobExpects.build(), taskExpects.build(), queueExpects.build(), nodeExpects.build());
  }

  private static List<Field> entries(MapReader expect, String key) throws ScenarioException {
    Optional<Field> field = expect.optional(key);
    return field.isPresent() ? field.get().asOpenMap().fields() : ImmutableList.of();
  }

  private JobExpectation job(Field entry) throws ScenarioException {
    checkJob(entry, entry.key());
    MapReader expect = entry.asMap(JOB_KEYS);
    Optional<List<String>> nodes = Optional.empty();
    Optional<Field> nodesField = expect.optional("nodes");
    if (nodesField.isPresent()) {
      ImmutableList.Builder<String> names = ImmutableList.builder();
      TreeSet<String> seen = new TreeSet<>();
      for (Field item : nodesField.get().asList()) {
        String node = checkNode(item, item.asNonEmptyString());
        if (!seen.add(node)) {
          throw item.error("duplicate node " + Field.quote(node));
        }
        names.add(node);
      }
      nodes = Optional.of(names.build());
    }
    Optional<ImmutableSortedMap<String, Integer>> taskStatuses = Optional.empty();
    Optional<Field> statusesField = expect.optional("taskStatuses");
    if (statusesField.isPresent()) {
      ImmutableSortedMap.Builder<String, Integer> counts = ImmutableSortedMap.naturalOrder();
      for (Field count : statusesField.get().asOpenMap().fields()) {
        if (!TaskExpectation.STATUSES.contains(count.key())) {
          throw count.error(
              "unknown task status, expected one of "
                  + String.join(", ", TaskExpectation.STATUSES));
        }
        counts.put(count.key(), count.asInt(0));
      }
      taskStatuses = Optional.of(counts.build());
    }
    return new JobExpectation(
        expect.optChoice("status", JobExpectation.STATUSES),
        nodes,
        taskStatuses,
        expect.optString("messageContains"));
  }

  private TaskExpectation task(Field entry) throws ScenarioException {
    checkTask(entry, entry.key());
    MapReader expect = entry.asMap(TASK_KEYS);
    Optional<String> node = Optional.empty();
    Optional<Field> nodeField = expect.optional("node");
    if (nodeField.isPresent()) {
      node = Optional.of(checkNode(nodeField.get(), nodeField.get().asNonEmptyString()));
    }
    Optional<String> sharesGpuWith = Optional.empty();
    Optional<Field> sharesField = expect.optional("sharesGpuWith");
    if (sharesField.isPresent()) {
      String other = sharesField.get().asNonEmptyString();
      if (other.equals(entry.key())) {
        throw sharesField.get().error("must name another task");
      }
      checkTask(sharesField.get(), other);
      sharesGpuWith = Optional.of(other);
    }
    return new TaskExpectation(
        expect.optChoice("status", TaskExpectation.STATUSES),
        node,
        expect.optDouble("gpuPortion", 0),
        sharesGpuWith,
        expect.optString("messageContains"),
        gpuDevices(expect.optional("gpuDevices")));
  }

  private static Optional<ImmutableList<Integer>> gpuDevices(Optional<Field> field)
      throws ScenarioException {
    if (field.isEmpty()) {
      return Optional.empty();
    }
    ImmutableList.Builder<Integer> devices = ImmutableList.builder();
    for (Field index : field.get().asList()) {
      devices.add(index.asInt(0));
    }
    return Optional.of(devices.build());
  }

  private QueueExpectation queue(Field entry) throws ScenarioException {
    if (!catalog.hasQueue(entry.key())) {
      throw entry.error("unknown queue " + Field.quote(entry.key()));
    }
    MapReader expect = entry.asMap(QUEUE_KEYS);
    return new QueueExpectation(
        resources(expect.optional("fairShare")), resources(expect.optional("allocated")));
  }

  private NodeExpectation node(Field entry) throws ScenarioException {
    checkNode(entry, entry.key());
    MapReader expect = entry.asMap(NODE_KEYS);
    OptionalInt idle = expect.optInt("idleGpus", 0);
    OptionalInt releasing = expect.optInt("releasingGpus", 0);
    return new NodeExpectation(idle, releasing);
  }

  private static Optional<ImmutableSortedMap<String, Double>> resources(Optional<Field> field)
      throws ScenarioException {
    if (field.isEmpty()) {
      return Optional.empty();
    }
    ImmutableSortedMap.Builder<String, Double> amounts = ImmutableSortedMap.naturalOrder();
    for (Field amount : field.get().asMap(QueueExpectation.RESOURCES).fields()) {
      amounts.put(amount.key(), amount.asDouble(0));
    }
    return Optional.of(amounts.build());
  }

  private JobSpec checkJob(Field at, String name) throws ScenarioException {
    JobSpec job = jobsByName.get(name);
    if (job == null) {
      throw at.error("unknown job " + Field.quote(name) + jobHint(name));
    }
    return job;
  }

  /** Checks a {@code job/task} reference. */
  private void checkTask(Field at, String reference) throws ScenarioException {
    int slash = reference.indexOf('/');
    if (slash < 0) {
      throw at.error("expected job/task, got " + Field.quote(reference));
    }
    String jobName = reference.substring(0, slash);
    String taskName = reference.substring(slash + 1);
    JobSpec job = checkJob(at, jobName);
    for (TaskSpec task : job.tasks()) {
      if (task.expandedNames().contains(taskName)) {
        return;
      }
    }
    throw at.error(
        "job "
            + Field.quote(jobName)
            + " has no task "
            + Field.quote(taskName)
            + taskHint(job, taskName));
  }

  private String checkNode(Field at, String name) throws ScenarioException {
    if (!catalog.hasNode(name)) {
      throw at.error("unknown node " + Field.quote(name));
    }
    return name;
  }

  /** Explains expansion when a key names a job entry with a count other than 1. */
  private String jobHint(String name) {
    for (JobSpec job : jobs) {
      if (job.name().equals(name)) {
        return expansionHint("a job with count", name, job.count());
      }
    }
    return "";
  }

  private static String taskHint(JobSpec job, String name) {
    for (TaskSpec task : job.tasks()) {
      if (task.name().equals(name)) {
        return expansionHint("a task with replicas", name, task.replicas());
      }
    }
    return "";
  }

  private static String expansionHint(String what, String name, int count) {
    if (count == 0) {
      return " (" + what + " 0 creates none)";
    }
    return " ("
        + what
        + " "
        + count
        + " is named "
        + name
        + "-0 ... "
        + name
        + "-"
        + (count - 1)
        + ")";
  }
}
