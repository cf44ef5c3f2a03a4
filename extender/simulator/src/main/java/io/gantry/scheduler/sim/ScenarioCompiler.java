// Over 450 lines on purpose: the one place a loaded scenario becomes the simulated world, so every
// unit conversion, KAI default and refusal of an unbuilt feature is found here, in file order;
// what stands apart already has its own class (ClaimCompiler, PlacementRequirementsFromSpec,
// NodeCommitments, UsageHistory).
package io.gantry.scheduler.sim;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.gpusharing.GpuSharingRequest;
import io.gantry.gpusharing.MigProfile;
import io.gantry.kubemodel.config.PluginSpec;
import io.gantry.kubemodel.kai.GpuSharingAnnotations;
import io.gantry.kubemodel.kai.KaiObjectException;
import io.gantry.kubemodel.kai.LegacyMigAnnotation;
import io.gantry.kubemodel.kai.PodGroupShape;
import io.gantry.kubemodel.kai.Preemptibility;
import io.gantry.kubemodel.kai.PriorityClassTable;
import io.gantry.kubemodel.kai.QueueDefaults;
import io.gantry.kubemodel.kai.SubGroupDefinition;
import io.gantry.kubemodel.kai.TopologyRules;
import io.gantry.kubemodel.read.ScenarioException;
import io.gantry.scheduler.api.config.Placement;
import io.gantry.scheduler.api.config.PlacementStrategy;
import io.gantry.scheduler.api.config.PluginSetting;
import io.gantry.scheduler.api.config.SchedulerConfig;
import io.gantry.scheduler.model.GpuTopology;
import io.gantry.scheduler.model.JobInfo;
import io.gantry.scheduler.model.JobLifecycle;
import io.gantry.scheduler.model.NodeInfo;
import io.gantry.scheduler.model.NodeMigMode;
import io.gantry.scheduler.model.QueueInfo;
import io.gantry.scheduler.model.QueueResource;
import io.gantry.scheduler.model.ResourceKind;
import io.gantry.scheduler.model.ResourceNames;
import io.gantry.scheduler.model.Resources;
import io.gantry.scheduler.model.SubGroupSet;
import io.gantry.scheduler.model.TaskInfo;
import io.gantry.scheduler.model.TaskStatus;
import io.gantry.scheduler.model.Topology;
import io.gantry.scheduler.model.TopologyConstraint;
import io.gantry.scheduler.model.TopologyLevel;
import io.gantry.scheduler.model.placement.Taint;
import io.gantry.scheduler.model.placement.TaintEffect;
import io.gantry.scheduler.sim.spec.JobSpec;
import io.gantry.scheduler.sim.spec.MigStrategy;
import io.gantry.scheduler.sim.spec.NodeSpec;
import io.gantry.scheduler.sim.spec.QueueResourceSpec;
import io.gantry.scheduler.sim.spec.QueueSpec;
import io.gantry.scheduler.sim.spec.ScenarioSpec;
import io.gantry.scheduler.sim.spec.SubGroupSpec;
import io.gantry.scheduler.sim.spec.TaskSpec;
import io.gantry.scheduler.sim.spec.TopologyConstraintSpec;
import io.gantry.scheduler.sim.spec.TopologySpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns a loaded scenario into the simulated world: expands counts and replicas, converts units and
 * defaults the way KAI does, and rejects — naming the field — every feature this build does not
 * implement yet, so nothing in a file is silently ignored.
 */
final class ScenarioCompiler {
  /** Simulated time starts here; fixed so that runs are reproducible. */
  static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

  private static final Pattern SUBGROUP_FIELD = Pattern.compile("subGroups\\[(\\d+)]\\..*");

  private final ScenarioSpec spec;
  private final String file;
  private final PlacementRequirementsFromSpec placementRequirements;
  private final ClaimCompiler claims;

  private ScenarioCompiler(ScenarioSpec spec) {
    this.spec = spec;
    this.file = spec.sourceName();
    this.placementRequirements = new PlacementRequirementsFromSpec(file);
    this.claims = new ClaimCompiler(file, spec.dra());
  }

  static SimWorld compile(ScenarioSpec spec) throws ScenarioException {
    return new ScenarioCompiler(spec).compile();
  }

  private SimWorld compile() throws ScenarioException {
    ImmutableSortedMap<String, Topology> topologies = topologies();
    SchedulerConfig config =
        SchedulerConfig.of(
                spec.config().actions().orElse(SchedulerConfig.DEFAULT_ACTIONS),
                plugins(),
                placement(),
                spec.config().evictionSettings())
            .withQueueDepthPerAction(spec.config().queueDepths());
    ImmutableList<NodeInfo> nodes = nodes();
    Map<String, NodeInfo> nodesByName = new TreeMap<>();
    nodes.forEach(n -> nodesByName.put(n.name(), n));
    return new SimWorld(
        spec.name(),
        START,
        spec.config().cycles().orElse(1),
        spec.config().cyclePeriod().orElse(Duration.ofSeconds(1)),
        config,
        nodes,
        queues(),
        topologies,
        jobs(nodesByName, topologies),
        claims.resources(),
        new TreeMap<>());
  }

  /** The Topology objects, checked with KAI's rules (kai-reference §2.4). */
  private ImmutableSortedMap<String, Topology> topologies() throws ScenarioException {
    ImmutableSortedMap.Builder<String, Topology> out = ImmutableSortedMap.naturalOrder();
    for (int i = 0; i < spec.topologies().size(); i++) {
      TopologySpec t = spec.topologies().get(i);
      List<TopologyLevel> levels = new ArrayList<>();
      t.levels().forEach(l -> levels.add(new TopologyLevel(l.nodeLabel(), l.alias())));
      try {
        out.put(t.name(), TopologyRules.topology(t.name(), levels));
      } catch (KaiObjectException e) {
        throw new ScenarioException(
            file, t.line(), "topologies[" + i + "]." + e.field(), e.problem());
      }
    }
    return out.buildOrThrow();
  }

  /** A job's or subgroup's constraint, its levels checked against its topology. */
  private Optional<TopologyConstraint> constraint(
      Optional<TopologyConstraintSpec> spec,
      Map<String, Topology> topologies,
      String field,
      int line)
      throws ScenarioException {
    if (spec.isEmpty()) {
      return Optional.empty();
    }
    TopologyConstraint constraint =
        new TopologyConstraint(
            spec.get().topology(),
            spec.get().requiredTopologyLevel(),
            spec.get().preferredTopologyLevel());
    try {
      TopologyRules.checkConstraint(constraint, topologies.get(constraint.topology()));
    } catch (KaiObjectException e) {
      throw new ScenarioException(file, line, field + "." + e.field(), e.problem());
    }
    return Optional.of(constraint);
  }

  private Placement placement() throws ScenarioException {
    return new Placement(
        strategy(spec.config().gpuPlacement(), "gpu"),
        strategy(spec.config().cpuPlacement(), "cpu"));
  }

  private PlacementStrategy strategy(Optional<String> value, String key) throws ScenarioException {
    try {
      return PlacementStrategy.parse(value.orElse(PlacementStrategy.BINPACK.k8sName()));
    } catch (IllegalArgumentException e) {
      throw new ScenarioException(
          file, configLine("placement"), "config.placement." + key, e.getMessage());
    }
  }

  private Map<String, PluginSetting> plugins() {
    Map<String, PluginSetting> out = new TreeMap<>();
    for (Map.Entry<String, PluginSpec> e : spec.config().plugins().entrySet()) {
      out.put(e.getKey(), new PluginSetting(e.getValue().enabled(), e.getValue().arguments()));
    }
    return out;
  }

  private ImmutableList<NodeInfo> nodes() throws ScenarioException {
    List<NodeInfo> out = new ArrayList<>();
    for (int i = 0; i < spec.nodes().size(); i++) {
      NodeSpec n = spec.nodes().get(i);
      String field = "nodes[" + i + "]";
      for (String resource : n.extended().keySet()) {
        try {
          MigProfile.ofResource(resource);
        } catch (IllegalArgumentException e) {
          throw new ScenarioException(
              file,
              line(n.fieldLines(), "extended", n.line()),
              field + ".extended." + resource,
              e.getMessage());
        }
      }
      ImmutableList.Builder<Taint> taints = ImmutableList.builder();
      n.taints()
          .forEach(t -> taints.add(new Taint(t.key(), t.value(), TaintEffect.parse(t.effect()))));
      for (int c = 0; c < n.count(); c++) {
        String name = n.count() == 1 ? n.name() : n.name() + "-" + c;
        TreeMap<String, String> labels = new TreeMap<>(n.labels());
        labels.put(NodeInfo.HOSTNAME_LABEL, name);
        n.gpuProduct().ifPresent(p -> labels.put("nvidia.com/gpu.product", p));
        if (n.migStrategy() != MigStrategy.NONE) {
          // a mixed node may list no instance yet (dynamic MIG makes them on demand): the label,
          // as KAI's clusters carry it, is what makes it a MIG node
          labels.put(NodeMigMode.ENABLED_LABEL, "true");
          labels.put(NodeMigMode.STRATEGY_LABEL, n.migStrategy().yamlName());
        }
        // with the mixed strategy the device plugin offers the GPUs only as MIG instances
        long wholeGpus = n.migStrategy() == MigStrategy.MIXED ? 0 : n.gpus();
        if (wholeGpus > 0) {
          labels.put("nvidia.com/gpu.count", Long.toString(wholeGpus));
        }
        // KAI reads a missing nvidia.com/gpu.memory label as not synced
        boolean synced = n.gpuMemorySynced() && n.gpuMemoryMib().isPresent();
        if (synced) {
          labels.put("nvidia.com/gpu.memory", Long.toString(n.gpuMemoryMib().getAsLong()));
        }
        out.add(
            new NodeInfo(
                name,
                ImmutableSortedMap.copyOf(labels),
                taints.build(),
                new Resources(
                    n.cpuMillis(), n.memoryBytes(), GpuAmount.ofDevices(wholeGpus), n.extended()),
                synced ? n.gpuMemoryMib().getAsLong() : 0,
                synced,
                n.maxPods(),
                n.unschedulable(),
                n.ready(),
                GpuTopology.of(n.gpuTopology())));
      }
    }
    out.sort(Comparator.comparing(NodeInfo::name));
    return ImmutableList.copyOf(out);
  }

  private ImmutableList<QueueInfo> queues() throws ScenarioException {
    List<QueueSpec> specs = spec.queues();
    // older createdAt first, then source order: the order KAI's creation timestamp and UID give
    List<Integer> byAge = new ArrayList<>();
    for (int i = 0; i < specs.size(); i++) {
      byAge.add(i);
    }
    byAge.sort(
        Comparator.comparing((Integer i) -> specs.get(i).createdAt().orElse(Duration.ZERO))
            .thenComparing(i -> i));
    long[] order = new long[specs.size()];
    for (int rank = 0; rank < byAge.size(); rank++) {
      order[byAge.get(rank)] = rank;
    }
    ImmutableList.Builder<QueueInfo> out = ImmutableList.builder();
    for (int i = 0; i < specs.size(); i++) {
      QueueSpec q = specs.get(i);
      out.add(
          new QueueInfo(
              q.name(),
              q.parent(),
              q.priority(),
              queueResource(q.resources().get("gpu"), ResourceKind.GPU),
              queueResource(q.resources().get("cpu"), ResourceKind.CPU),
              queueResource(q.resources().get("memory"), ResourceKind.MEMORY),
              q.preemptMinRuntime(),
              q.reclaimMinRuntime(),
              order[i]));
    }
    return out.build();
  }

  private static QueueResource queueResource(QueueResourceSpec r, ResourceKind kind) {
    return r == null
        ? QueueDefaults.absent()
        : QueueDefaults.resource(kind, r.quota(), r.overQuotaWeight(), r.limit());
  }

  private List<SimJob> jobs(Map<String, NodeInfo> nodes, Map<String, Topology> topologies)
      throws ScenarioException {
    NodeCommitments commitments = new NodeCommitments(nodes);
    List<SimJob> out = new ArrayList<>();
    long jobOrder = 0;
    long taskOrder = 0;
    for (int i = 0; i < spec.jobs().size(); i++) {
      JobSpec j = spec.jobs().get(i);
      String field = j.field();
      int priority =
          j.priority().isPresent()
              ? j.priority().getAsInt()
              : PriorityClassTable.KAI_DEFAULTS.priorityOf(j.priorityClass());
      boolean preemptible = Preemptibility.isPreemptible(j.preemptibility(), priority);
      SubGroupSet root = subGroupTree(j, field, topologies);
      for (int c = 0; c < j.count(); c++) {
        String name = j.count() == 1 ? j.name() : j.name() + "-" + c;
        String jobId = j.namespace() + "/" + name;
        Instant created = START.plus(j.createdAt().orElse(Duration.ZERO)).plusSeconds(c);
        Instant arrival = START.plus(j.arrival().orElse(Duration.ZERO));
        JobInfo template =
            new JobInfo(
                jobId,
                name,
                j.namespace(),
                j.queue(),
                priority,
                preemptible,
                created,
                jobOrder++,
                root,
                ImmutableList.of(),
                lifecycle(j));
        SimJob job =
            new SimJob(
                template,
                name,
                arrival,
                j.duration(),
                j.replace(),
                j.terminationGracePeriod().orElse(Duration.ZERO));
        for (int t = 0; t < j.tasks().size(); t++) {
          TaskSpec ts = j.tasks().get(t);
          String taskField = ts.field();
          for (int r = 0; r < ts.replicas(); r++) {
            String taskName = ts.replicas() == 1 ? ts.name() : ts.name() + "-" + r;
            TaskInfo task =
                claims.resolve(
                    task(
                        j,
                        ts,
                        taskField,
                        name,
                        jobId,
                        taskName,
                        podSet(j, ts, taskField),
                        nodes,
                        commitments,
                        taskOrder++),
                    ts);
            Optional<String> overflow = commitments.take(task);
            if (overflow.isPresent()) {
              throw new ScenarioException(
                  file,
                  line(ts.fieldLines(), "node", ts.line()),
                  taskField + ".node",
                  overflow.get());
            }
            Instant since = ts.startedAt().map(START::plus).orElse(START);
            job.tasks.add(new SimTask(task, since));
          }
        }
        out.add(job);
      }
    }
    return out;
  }

  /** The PodGroup's timestamps (relative to the start) and delays. */
  private static JobLifecycle lifecycle(JobSpec j) {
    return new JobLifecycle(
        j.lastStartedAt().map(START::plus),
        Optional.empty(),
        j.staleSince().map(START::plus),
        j.preemptionDelay(),
        j.stalenessGracePeriod());
  }

  /** KAI's reading of the job's gang (PodGroupShape), errors pointed at the job's lines. */
  private SubGroupSet subGroupTree(JobSpec j, String field, Map<String, Topology> topologies)
      throws ScenarioException {
    List<SubGroupDefinition> definitions = new ArrayList<>();
    for (int i = 0; i < j.subGroups().size(); i++) {
      SubGroupSpec s = j.subGroups().get(i);
      definitions.add(
          new SubGroupDefinition(
              s.name(),
              s.parent(),
              s.minMember(),
              s.minSubGroup(),
              constraint(
                  s.topologyConstraint(),
                  topologies,
                  field + ".subGroups[" + i + "].topologyConstraint",
                  s.line())));
    }
    Optional<TopologyConstraint> jobConstraint =
        constraint(
            j.topologyConstraint(),
            topologies,
            field + ".topologyConstraint",
            line(j.fieldLines(), "topologyConstraint", j.line()));
    try {
      return PodGroupShape.tree(j.minMember(), j.minSubGroup(), jobConstraint, definitions);
    } catch (KaiObjectException e) {
      Matcher m = SUBGROUP_FIELD.matcher(e.field());
      int line =
          m.matches()
              ? j.subGroups().get(Integer.parseInt(m.group(1))).line()
              : line(j.fieldLines(), e.field(), j.line());
      throw new ScenarioException(file, line, field + "." + e.field(), e.problem());
    }
  }

  private String podSet(JobSpec j, TaskSpec ts, String taskField) throws ScenarioException {
    if (j.subGroups().isEmpty()) {
      if (ts.subGroup().isPresent()) {
        throw new ScenarioException(
            file,
            line(ts.fieldLines(), "subGroup", ts.line()),
            taskField + ".subGroup",
            "the job has no subGroups");
      }
      return JobInfo.DEFAULT_POD_SET;
    }
    if (ts.subGroup().isEmpty()) {
      throw new ScenarioException(
          file,
          ts.line(),
          taskField + ".subGroup",
          "required: the job has subGroups, and a task must name the leaf SubGroup it belongs to");
    }
    return ts.subGroup().get();
  }

  private TaskInfo task(
      JobSpec j,
      TaskSpec ts,
      String field,
      String jobName,
      String jobId,
      String taskName,
      String podSet,
      Map<String, NodeInfo> nodes,
      NodeCommitments commitments,
      long creationOrder)
      throws ScenarioException {
    TreeMap<String, Long> extended = new TreeMap<>();
    long cpu = 0;
    long memory = 0;
    long gpus = 0;
    for (Map.Entry<String, Long> e : ts.resources().entrySet()) {
      switch (e.getKey()) {
        case ResourceNames.CPU -> cpu = e.getValue();
        case ResourceNames.MEMORY -> memory = e.getValue();
        case ResourceNames.GPU -> gpus = e.getValue();
        default -> {
          try {
            MigProfile.ofResource(e.getKey());
          } catch (IllegalArgumentException bad) {
            throw new ScenarioException(
                file,
                line(ts.fieldLines(), "resources", ts.line()),
                field + ".resources." + e.getKey(),
                bad.getMessage());
          }
          extended.put(e.getKey(), e.getValue());
        }
      }
    }
    Optional<GpuSharingRequest> sharing = gpuSharing(ts, field, gpus);
    int devices = sharing.map(GpuSharingRequest::numDevices).orElse(1);
    TaskStatus status = TaskStatus.valueOf(ts.status().name());
    Optional<String> node = ts.node();
    GpuAmount portion = GpuAmount.ZERO;
    ImmutableList<String> gpuGroups = ImmutableList.copyOf(ts.gpuGroups());
    if (sharing.isPresent() && node.isPresent() && occupiesNode(status)) {
      portion = sharing.get().portionOn(nodes.get(node.get()).gpuMemoryMib());
      if (gpuGroups.isEmpty() && devices == 1) {
        gpuGroups = ImmutableList.of(commitments.sharedGroupFor(node.get(), portion));
      } else if (ts.gpuGroups().size() != devices) {
        throw new ScenarioException(
            file,
            line(ts.fieldLines(), "gpuGroups", ts.line()),
            field + ".gpuGroups",
            "a placed shared-GPU task needs one GPU group per device ("
                + devices
                + "), got "
                + ts.gpuGroups().size());
      }
    } else if (!ts.gpuGroups().isEmpty()) {
      throw new ScenarioException(
          file,
          line(ts.fieldLines(), "gpuGroups", ts.line()),
          field + ".gpuGroups",
          "only a placed (Running, Bound, Pipelined, Releasing) shared-GPU task has GPU groups");
    }
    ImmutableList<Integer> heldDevices = gpuDevices(ts, field, status, gpus, sharing, nodes);
    checkLegacyMig(ts, field);
    TaskInfo task =
        new TaskInfo(
            jobId + "/" + taskName,
            taskName,
            ts.podName().orElse(jobName + "-" + taskName),
            j.namespace(),
            jobId,
            podSet,
            new Resources(
                cpu, memory, GpuAmount.ofDevices(gpus), ImmutableSortedMap.copyOf(extended)),
            sharing,
            status,
            node,
            gpuGroups,
            portion,
            ts.taskPriority(),
            ts.labels(),
            placementRequirements.requirements(ts, field),
            creationOrder,
            ImmutableList.of(),
            heldDevices);
    return LegacyMigAnnotation.apply(task, ts.annotations());
  }

  /**
   * An annotation named after a MIG instance resource makes a legacy MIG pod (KAI reads its value
   * as the instances the pod asks for): the name must be a profile and the value a whole number.
   */
  private void checkLegacyMig(TaskSpec ts, String field) throws ScenarioException {
    for (Map.Entry<String, String> e : ts.annotations().entrySet()) {
      String path = field + ".annotations." + e.getKey();
      int line = line(ts.fieldLines(), "annotations", ts.line());
      try {
        if (MigProfile.ofResource(e.getKey()).isPresent()) {
          Long.parseLong(e.getValue());
        }
      } catch (NumberFormatException notWhole) {
        throw new ScenarioException(
            file,
            line,
            path,
            "a legacy MIG annotation's value is the number of instances, a whole number, got "
                + e.getValue());
      } catch (IllegalArgumentException badProfile) {
        throw new ScenarioException(file, line, path, badProfile.getMessage());
      }
    }
  }

  /**
   * A placed whole-GPU task's {@code gpuDevices}: one index per GPU, each below the node's GPU
   * count, on a node that names its GPUs ({@code gpuTopology}).
   */
  private ImmutableList<Integer> gpuDevices(
      TaskSpec ts,
      String field,
      TaskStatus status,
      long gpus,
      Optional<GpuSharingRequest> sharing,
      Map<String, NodeInfo> nodes)
      throws ScenarioException {
    if (ts.gpuDevices().isEmpty()) {
      return ImmutableList.of();
    }
    int line = line(ts.fieldLines(), "gpuDevices", ts.line());
    String path = field + ".gpuDevices";
    if (!occupiesNode(status) || sharing.isPresent() || ts.gpuDevices().size() != gpus) {
      throw new ScenarioException(
          file,
          line,
          path,
          "a placed (Running, Bound, Pipelined, Releasing) whole-GPU task lists one device per"
              + " GPU ("
              + gpus
              + "), got "
              + ts.gpuDevices().size());
    }
    NodeInfo node = nodes.get(ts.node().orElseThrow());
    if (!node.gpuTopology().known()) {
      throw new ScenarioException(
          file,
          line,
          path,
          "node " + node.name() + " does not name its GPUs: give it a gpuTopology");
    }
    TreeSet<Integer> seen = new TreeSet<>();
    for (int index : ts.gpuDevices()) {
      if (index >= node.gpuCount()) {
        throw new ScenarioException(
            file,
            line,
            path,
            "GPU index "
                + index
                + " is out of range: node "
                + node.name()
                + " has "
                + node.gpuCount()
                + " GPUs");
      }
      if (!seen.add(index)) {
        throw new ScenarioException(file, line, path, "GPU index " + index + " is listed twice");
      }
    }
    return ImmutableList.copyOf(ts.gpuDevices());
  }

  /** Holds a place on its node at the start: resources, or releasing ones when pipelined. */
  private static boolean occupiesNode(TaskStatus status) {
    return status.holdsNodeResources() || status == TaskStatus.PIPELINED;
  }

  /** KAI's pod admission rules over the task's typed annotation fields. */
  private Optional<GpuSharingRequest> gpuSharing(TaskSpec ts, String field, long wholeGpus)
      throws ScenarioException {
    try {
      return GpuSharingAnnotations.request(
          ts.gpuFraction(),
          ts.gpuMemoryMib(),
          ts.gpuFractionNumDevices(),
          "true".equals(ts.annotations().get(GpuSharingAnnotations.MPS)),
          wholeGpus);
    } catch (KaiObjectException e) {
      String key =
          switch (e.field()) {
            case "annotations." + GpuSharingAnnotations.GPU_FRACTION -> "gpuFraction";
            case "annotations." + GpuSharingAnnotations.GPU_MEMORY -> "gpuMemory";
            case "annotations." + GpuSharingAnnotations.MPS -> "annotations";
            default -> "gpuFractionNumDevices";
          };
      throw new ScenarioException(
          file, line(ts.fieldLines(), key, ts.line()), field + "." + key, e.problem());
    }
  }

  private int configLine(String key) {
    return spec.config().fieldLines().getOrDefault(key, 1);
  }

  private static int line(Map<String, Integer> fieldLines, String key, int fallback) {
    return fieldLines.getOrDefault(key, fallback);
  }
}
