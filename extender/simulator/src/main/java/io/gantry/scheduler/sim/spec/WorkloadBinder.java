package io.gantry.scheduler.sim.spec;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.kubemodel.kai.KaiObjectException;
import io.gantry.kubemodel.kai.QueueAssignment;
import io.gantry.kubemodel.kai.grouping.GroupingConfig;
import io.gantry.kubemodel.kai.grouping.PlannedSubGroup;
import io.gantry.kubemodel.kai.grouping.PodGroupPlan;
import io.gantry.kubemodel.kai.grouping.PodGroupPlanner;
import io.gantry.kubemodel.kai.grouping.PodMeta;
import io.gantry.kubemodel.kai.grouping.WorkloadKind;
import io.gantry.kubemodel.read.Field;
import io.gantry.kubemodel.read.FieldLocator;
import io.gantry.kubemodel.read.ScenarioException;
import io.gantry.scheduler.model.TopologyConstraint;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;

/**
 * Binds the {@code workloads} section: each entry is a Kubernetes manifest as its author submits
 * it. The pods its controllers would create at once are made (their requests from the pod
 * templates), KAI's podgrouper rules ({@link PodGroupPlanner}) put them in PodGroups, and each
 * PodGroup becomes a job whose tasks are those pods — after the {@code jobs} entries, in the order
 * the workloads and their pods are created.
 */
final class WorkloadBinder {
  private static final PodGroupPlanner PLANNER = new PodGroupPlanner(GroupingConfig.kaiDefaults());

  private final Catalog catalog;
  private final PodBudget budget;
  private final TreeMap<String, String> jobNames = new TreeMap<>();

  private WorkloadBinder(Catalog catalog, PodBudget budget, List<JobSpec> jobs) {
    this.catalog = catalog;
    this.budget = budget;
    for (JobSpec job : jobs) {
      job.expandedNames().forEach(n -> jobNames.put(n, job.field()));
    }
  }

  /**
   * The jobs of {@code items}; {@code jobs} are the scenario's own, whose names PodGroups may not
   * take, and whose pods count against the same limit.
   */
  static List<JobSpec> bind(
      List<Field> items, Catalog catalog, ScenarioLimits limits, List<JobSpec> jobs)
      throws ScenarioException {
    long pods = 0;
    for (JobSpec job : jobs) {
      pods += (long) job.count() * job.tasks().stream().mapToLong(TaskSpec::replicas).sum();
    }
    WorkloadBinder binder =
        new WorkloadBinder(catalog, new PodBudget(limits.maxPods(), pods), jobs);
    ImmutableList.Builder<JobSpec> out = ImmutableList.builder();
    for (Field item : items) {
      out.addAll(binder.workload(item));
    }
    return out.build();
  }

  private List<JobSpec> workload(Field item) throws ScenarioException {
    ManifestObject object = ManifestObject.read(item);
    List<ManifestPod> pods = pods(object);
    Map<String, List<ManifestPod>> podsByGroup = new LinkedHashMap<>();
    Map<String, PodGroupPlan> plans = new LinkedHashMap<>();
    Map<ManifestPod, Optional<String>> leaves = new LinkedHashMap<>();
    for (ManifestPod pod : pods) {
      PodGroupPlan plan = plan(object, pod);
      leaves.put(pod, plan.podSubGroup());
      PodGroupPlan group =
          plan.withSubGroups(plan.minSubGroup(), plan.subGroups(), Optional.empty());
      PodGroupPlan earlier = plans.putIfAbsent(plan.name(), group);
      if (earlier != null && !earlier.equals(group)) {
        throw item.error(
            "KAI's podgrouper would give PodGroup "
                + Field.quote(plan.name())
                + " different specs for different pods of this workload");
      }
      podsByGroup.computeIfAbsent(plan.name(), k -> new ArrayList<>()).add(pod);
    }
    ImmutableList.Builder<JobSpec> jobs = ImmutableList.builder();
    for (Map.Entry<String, List<ManifestPod>> e : podsByGroup.entrySet()) {
      jobs.add(job(object, plans.get(e.getKey()), e.getValue(), leaves));
    }
    return jobs.build();
  }

  private List<ManifestPod> pods(ManifestObject object) throws ScenarioException {
    WorkloadKind kind = WorkloadKind.of(object.apiVersion(), object.kind());
    return switch (kind) {
      case POD -> ReplicatedWorkloads.pod(object, budget);
      case DEPLOYMENT -> ReplicatedWorkloads.deployment(object, budget);
      case REPLICA_SET -> ReplicatedWorkloads.replicaSet(object, budget);
      case STATEFUL_SET -> ReplicatedWorkloads.statefulSet(object, budget);
      case BATCH_JOB -> ReplicatedWorkloads.batchJob(object, budget);
      case NOTEBOOK -> ReplicatedWorkloads.notebook(object, budget);
      case DEFAULT -> ReplicatedWorkloads.unknownKind(object, budget);
      case TF_JOB ->
          KubeflowWorkloads.pods(
              object, "tfReplicaSpecs", List.of("successPolicy", "enableDynamicWorker"), budget);
      case PYTORCH_JOB ->
          KubeflowWorkloads.pods(
              object, "pytorchReplicaSpecs", List.of("elasticPolicy", "nprocPerNode"), budget);
      case XGBOOST_JOB -> KubeflowWorkloads.pods(object, "xgbReplicaSpecs", List.of(), budget);
      case JAX_JOB -> KubeflowWorkloads.pods(object, "jaxReplicaSpecs", List.of(), budget);
      case MPI_JOB ->
          KubeflowWorkloads.pods(
              object,
              "mpiReplicaSpecs",
              object.apiVersion().equals("kubeflow.org/v1")
                  ? List.of("slotsPerWorker", "cleanPodPolicy", "mainContainer")
                  : List.of(
                      "slotsPerWorker",
                      "launcherCreationPolicy",
                      "mpiImplementation",
                      "sshAuthMountPath"),
              budget);
      case RAY_CLUSTER -> RayWorkloads.rayCluster(object, budget);
      case RAY_JOB -> RayWorkloads.rayJob(object, budget);
      case RAY_SERVICE -> RayWorkloads.rayService(object, budget);
      case JOB_SET -> JobSetWorkloads.pods(object, budget);
      case LEADER_WORKER_SET -> LeaderWorkerSetWorkloads.pods(object, budget);
      case CRON_JOB ->
          throw unsupportedKind(
              object, "the simulator runs no schedules; submit its jobTemplate as a Job");
      case SPOT_REQUEST ->
          throw unsupportedKind(object, "the simulator cannot tell which pods a SPOTRequest makes");
      case KNATIVE_SERVICE ->
          throw unsupportedKind(
              object, "the simulator does not model Knative revisions and their autoscaler");
      case SKIP_TOP_OWNER ->
          throw unsupportedKind(
              object,
              "its pods are made by the workload it wraps (a Workflow's steps, a TrainJob's"
                  + " JobSet); submit that instead");
    };
  }

  private static ScenarioException unsupportedKind(ManifestObject object, String why)
      throws ScenarioException {
    Field kind = object.entry().asOpenMap().required("kind");
    return kind.error(object.apiVersion() + " " + object.kind() + ": " + why);
  }

  /** KAI's PodGroup for the pod; a broken rule points at the manifest field it names. */
  private static PodGroupPlan plan(ManifestObject object, ManifestPod pod)
      throws ScenarioException {
    PodGroupPlan plan;
    try {
      plan = PLANNER.plan(pod.input());
      plan.tree();
    } catch (KaiObjectException e) {
      throw error(object, pod, e.field(), e.problem());
    }
    return plan;
  }

  private static ScenarioException error(
      ManifestObject object, ManifestPod pod, String path, String problem) {
    Field root = object.entry();
    String rest = path;
    if (path.startsWith("pod.")) {
      root = pod.template().field();
      rest = path.substring("pod.".length());
    }
    Field at = FieldLocator.locate(root, rest);
    String where = root.path() + (rest.isEmpty() ? "" : "." + rest);
    return new ScenarioException(root.sourceName(), at.line(), where, problem);
  }

  private JobSpec job(
      ManifestObject object,
      PodGroupPlan plan,
      List<ManifestPod> pods,
      Map<ManifestPod, Optional<String>> leaves)
      throws ScenarioException {
    Field item = object.entry();
    String earlier = jobNames.putIfAbsent(plan.name(), item.path());
    if (earlier != null) {
      throw item.error(
          "its PodGroup " + Field.quote(plan.name()) + " has the name of the job at " + earlier);
    }
    checkQueue(object, pods.get(0), plan.queue());
    ImmutableList.Builder<SubGroupSpec> subGroups = ImmutableList.builder();
    for (PlannedSubGroup s : plan.subGroups()) {
      subGroups.add(
          new SubGroupSpec(
              s.name(),
              s.parent(),
              s.minMember(),
              s.minSubGroup(),
              s.topologyConstraint().map(WorkloadBinder::constraint),
              item.line()));
    }
    ImmutableList.Builder<TaskSpec> tasks = ImmutableList.builder();
    for (ManifestPod pod : pods) {
      tasks.add(task(plan, pod, leaves.get(pod)));
    }
    return new JobSpec(
        plan.name(),
        1,
        plan.namespace(),
        plan.queue(),
        Optional.of(plan.priorityClassName()),
        OptionalInt.empty(),
        plan.preemptibility(),
        plan.minMember(),
        plan.minSubGroup(),
        subGroups.build(),
        plan.topologyConstraint().map(WorkloadBinder::constraint),
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        true,
        pods.get(0).template().terminationGracePeriod(),
        Optional.empty(),
        Optional.empty(),
        tasks.build(),
        item.path(),
        item.line(),
        ImmutableSortedMap.of());
  }

  private static TaskSpec task(PodGroupPlan plan, ManifestPod pod, Optional<String> leaf)
      throws ScenarioException {
    PodMeta meta = pod.input().pod();
    ManifestPodTemplate t = pod.template();
    TreeMap<String, String> labels = new TreeMap<>(meta.labels());
    TreeMap<String, String> annotations = new TreeMap<>(meta.annotations());
    annotations.put(PodGroupPlanner.POD_GROUP_ANNOTATION, plan.name());
    if (!plan.subGroups().isEmpty()) {
      if (leaf.isEmpty() || !isLeaf(plan, leaf.get())) {
        throw t.field()
            .error(
                "pod "
                    + Field.quote(meta.name())
                    + " belongs to no SubGroup of PodGroup "
                    + Field.quote(plan.name()));
      }
      labels.put(PodGroupPlanner.SUBGROUP_LABEL, leaf.get());
    }
    return new TaskSpec(
        meta.name(),
        1,
        plan.subGroups().isEmpty() ? Optional.empty() : leaf,
        t.resources(),
        t.gpuFraction(),
        t.gpuMemoryMib(),
        t.gpuFractionNumDevices(),
        t.gated() ? InitialTaskStatus.GATED : InitialTaskStatus.PENDING,
        Optional.empty(),
        ImmutableList.of(),
        Optional.empty(),
        t.taskPriority(),
        ImmutableSortedMap.copyOf(labels),
        ImmutableSortedMap.copyOf(annotations),
        t.nodeSelector(),
        t.tolerations(),
        t.affinity(),
        Optional.of(meta.name()),
        t.specField().path(),
        t.specField().line(),
        t.specLines(),
        List.of(),
        List.of());
  }

  /** KAI's topology annotations, as the podgrouper read them, in the scenario's terms. */
  private static TopologyConstraintSpec constraint(TopologyConstraint c) {
    return new TopologyConstraintSpec(c.topology(), c.requiredLevel(), c.preferredLevel());
  }

  private static boolean isLeaf(PodGroupPlan plan, String name) {
    boolean exists = plan.subGroups().stream().anyMatch(s -> s.name().equals(name));
    boolean parent =
        plan.subGroups().stream().anyMatch(s -> s.parent().filter(name::equals).isPresent());
    return exists && !parent;
  }

  /** The PodGroup's queue must be a leaf queue of the scenario; the error names its source. */
  private void checkQueue(ManifestObject object, ManifestPod pod, String queue)
      throws ScenarioException {
    Optional<String> problem = Optional.empty();
    if (!catalog.hasQueue(queue)) {
      problem = Optional.of("queue " + Field.quote(queue) + " is not a queue of this scenario");
    } else {
      problem = catalog.notLeaf(queue).map(p -> p.describe(Field::quote));
    }
    if (problem.isEmpty()) {
      return;
    }
    String key = QueueAssignment.DEFAULT_QUEUE_LABEL_KEY;
    if (object.labels().containsKey(key)) {
      throw at(object.entry(), "metadata.labels." + key).error(problem.get());
    }
    if (pod.template().meta().labels().containsKey(key)) {
      throw at(pod.template().field(), "metadata.labels." + key).error(problem.get());
    }
    throw object
        .entry()
        .error(
            problem.get()
                + " (no "
                + key
                + " label on the workload or its pods, so KAI puts it in "
                + Field.quote(queue)
                + ")");
  }

  private static Field at(Field root, String path) {
    return FieldLocator.locate(root, path);
  }
}
