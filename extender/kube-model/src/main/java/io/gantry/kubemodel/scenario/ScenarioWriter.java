package io.gantry.kubemodel.scenario;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import io.gantry.gpusharing.ComputeMode;
import io.gantry.gpusharing.GpuSharingRequest;
import io.gantry.kubemodel.kai.GpuSharingAnnotations;
import io.gantry.kubemodel.selector.NodeSelectorJson;
import io.gantry.scheduler.api.config.PluginSetting;
import io.gantry.scheduler.api.config.SchedulerConfig;
import io.gantry.scheduler.model.ClusterSnapshot;
import io.gantry.scheduler.model.JobInfo;
import io.gantry.scheduler.model.NodeInfo;
import io.gantry.scheduler.model.PodSet;
import io.gantry.scheduler.model.QueueInfo;
import io.gantry.scheduler.model.QueueResource;
import io.gantry.scheduler.model.ResourceNames;
import io.gantry.scheduler.model.Resources;
import io.gantry.scheduler.model.SubGroupNode;
import io.gantry.scheduler.model.SubGroupSet;
import io.gantry.scheduler.model.TaskInfo;
import io.gantry.scheduler.model.TaskStatus;
import io.gantry.scheduler.model.Topology;
import io.gantry.scheduler.model.TopologyConstraint;
import io.gantry.scheduler.model.TopologyLevel;
import io.gantry.scheduler.model.dra.DynamicResources;
import io.gantry.scheduler.model.placement.Affinity;
import io.gantry.scheduler.model.placement.LabelSelector;
import io.gantry.scheduler.model.placement.LabelSelectorRequirement;
import io.gantry.scheduler.model.placement.PodAffinityTerm;
import io.gantry.scheduler.model.placement.Taint;
import io.gantry.scheduler.model.placement.Toleration;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Writes a snapshot the engine ran on as a scenario file ({@code docs/scenario-format.md}) that
 * {@code gantry simulate} replays to the same decisions: nodes (allocatable as the snapshot had it,
 * so resources held by pods outside the snapshot stay taken), queues and jobs in snapshot order
 * (which is their tie-breaking order), times relative to the snapshot's {@code now}, and the engine
 * configuration. A task that was {@code Binding} is written {@code Bound}: both hold their node. A
 * task is named after its pod, so {@code namespace} and task name find the pod again; a job whose
 * name another namespace already used is written {@code <name>.<namespace>}. Jobs whose queue is
 * missing or not a leaf are left out: a scenario cannot name such a queue, and the engine only
 * reports them.
 */
public final class ScenarioWriter {
  private static final ObjectMapper YAML =
      new ObjectMapper(
          new YAMLFactory()
              .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
              .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
              .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS));
  private static final double BYTES_PER_MB = 1_000_000.0;

  private ScenarioWriter() {}

  public static String write(
      String name, String description, ClusterSnapshot snapshot, SchedulerConfig config) {
    if (!snapshot.dynamicResources().equals(DynamicResources.NONE)) {
      throw new IllegalArgumentException(
          "the snapshot holds DRA objects (DeviceClasses, ResourceSlices, ResourceClaims), which"
              + " scenario files written from a snapshot do not carry yet");
    }
    ObjectNode root = YAML.createObjectNode();
    root.put("apiVersion", "gantry.io/v1alpha1");
    root.put("kind", "Scenario");
    root.putObject("metadata").put("name", name).put("description", description);
    config(root.putObject("config"), config);
    if (!snapshot.topologies().isEmpty()) {
      ArrayNode topologies = root.putArray("topologies");
      for (Topology t : snapshot.topologies().values()) {
        ObjectNode o = topologies.addObject().put("name", t.name());
        ArrayNode levels = o.putArray("levels");
        for (TopologyLevel l : t.levels()) {
          ObjectNode level = levels.addObject().put("nodeLabel", l.nodeLabel());
          l.alias().ifPresent(a -> level.put("alias", a));
        }
      }
    }
    ArrayNode nodes = root.putArray("nodes");
    snapshot.nodes().forEach(n -> node(nodes.addObject(), n));
    ArrayNode queues = root.putArray("queues");
    Set<String> parents = new HashSet<>();
    Set<String> known = new HashSet<>();
    for (QueueInfo q : snapshot.queues()) {
      q.parent().ifPresent(parents::add);
      known.add(q.name());
      queue(queues.addObject(), q);
    }
    ArrayNode jobs = root.putArray("jobs");
    Set<String> jobNames = new HashSet<>();
    for (JobInfo j : snapshot.jobs()) {
      if (!known.contains(j.queue()) || parents.contains(j.queue()) || j.tasks().isEmpty()) {
        continue;
      }
      String jobName = jobNames.add(j.name()) ? j.name() : j.name() + "." + j.namespace();
      jobNames.add(jobName);
      job(jobs.addObject(), j, jobName, snapshot);
    }
    try {
      return YAML.writeValueAsString(root);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("writing a scenario", e);
    }
  }

  private static void config(ObjectNode out, SchedulerConfig config) {
    ArrayNode actions = out.putArray("actions");
    config.actions().forEach(actions::add);
    out.putObject("placement")
        .put("gpu", config.placement().gpu().k8sName())
        .put("cpu", config.placement().cpu().k8sName());
    if (!config.queueDepthPerAction().depths().isEmpty()) {
      ObjectNode depths = out.putObject("queueDepthPerAction");
      config.queueDepthPerAction().depths().forEach(depths::put);
    }
    if (!config.plugins().isEmpty()) {
      ObjectNode plugins = out.putObject("plugins");
      for (Map.Entry<String, PluginSetting> e : config.plugins().entrySet()) {
        ObjectNode p = plugins.putObject(e.getKey());
        e.getValue().enabled().ifPresent(b -> p.put("enabled", b));
        if (!e.getValue().arguments().isEmpty()) {
          p.set("arguments", YAML.valueToTree(e.getValue().arguments()));
        }
      }
    }
  }

  private static void node(ObjectNode out, NodeInfo n) {
    out.put("name", n.name());
    Resources a = n.allocatable();
    out.put("gpus", a.gpus().wholeDevices());
    if (n.gpuMemorySynced()) {
      out.put("gpuMemory", n.gpuMemoryMib());
    } else {
      out.put("gpuMemorySynced", false);
    }
    out.put("cpu", a.cpuMillis() + "m");
    out.put("memory", Long.toString(a.memoryBytes()));
    out.put("maxPods", n.maxPods());
    if (!a.extended().isEmpty()) {
      ObjectNode ext = out.putObject("extended");
      a.extended().forEach((k, v) -> ext.put(k, Long.toString(v)));
    }
    ObjectNode labels = out.putObject("labels");
    n.labels()
        .forEach(
            (k, v) -> {
              // the loader derives these from the fields above
              if (!k.equals("nvidia.com/gpu.count")
                  && !k.equals("nvidia.com/gpu.memory")
                  && !k.equals("nvidia.com/gpu.product")) {
                labels.put(k, v);
              }
            });
    if (n.labels().containsKey("nvidia.com/gpu.product")) {
      out.put("gpuProduct", n.labels().get("nvidia.com/gpu.product"));
    }
    if (!n.taints().isEmpty()) {
      ArrayNode taints = out.putArray("taints");
      for (Taint t : n.taints()) {
        taints
            .addObject()
            .put("key", t.key())
            .put("value", t.value())
            .put("effect", t.effect().k8sName());
      }
    }
    out.put("unschedulable", n.unschedulable());
    out.put("ready", n.ready());
    if (n.gpuTopology().known()) {
      ArrayNode domains = out.putArray("gpuTopology");
      for (List<Integer> d : n.gpuTopology().domains()) {
        ArrayNode domain = domains.addArray();
        d.forEach(domain::add);
      }
    }
  }

  private static void queue(ObjectNode out, QueueInfo q) {
    out.put("name", q.name());
    q.parent().ifPresent(p -> out.put("parent", p));
    out.put("priority", q.priority());
    ObjectNode resources = out.putObject("resources");
    resource(resources.putObject("gpu"), q.gpu(), 1);
    resource(resources.putObject("cpu"), q.cpu(), 1);
    resource(resources.putObject("memory"), q.memory(), BYTES_PER_MB);
  }

  private static void resource(ObjectNode out, QueueResource r, double unit) {
    out.put("quota", r.quota() == QueueResource.UNLIMITED ? -1 : r.quota() / unit);
    out.put("overQuotaWeight", r.overQuotaWeight());
    out.put("limit", r.limit() == QueueResource.UNLIMITED ? -1 : r.limit() / unit);
  }

  private static void job(ObjectNode out, JobInfo j, String name, ClusterSnapshot snapshot) {
    out.put("name", name);
    out.put("namespace", j.namespace());
    out.put("queue", j.queue());
    out.put("priority", j.priority());
    out.put("preemptibility", j.preemptible() ? "preemptible" : "non-preemptible");
    SubGroupSet root = j.root();
    boolean flat =
        root.children().size() == 1
            && root.children().get(0) instanceof PodSet
            && root.children().get(0).name().equals(JobInfo.DEFAULT_POD_SET);
    if (flat) {
      out.put("minMember", ((PodSet) root.children().get(0)).minMember());
    } else {
      root.minSubGroup().ifPresent(m -> out.put("minSubGroup", m));
      subGroups(out.putArray("subGroups"), root, null);
    }
    root.topologyConstraint().ifPresent(c -> constraint(out.putObject("topologyConstraint"), c));
    out.put("createdAt", Duration.between(snapshot.now(), j.createdAt()).toMillis() + "ms");
    ArrayNode tasks = out.putArray("tasks");
    for (TaskInfo t : j.tasks()) {
      task(tasks.addObject(), t, flat);
    }
  }

  private static void constraint(ObjectNode out, TopologyConstraint c) {
    out.put("topology", c.topology());
    c.requiredLevel().ifPresent(l -> out.put("requiredTopologyLevel", l));
    c.preferredLevel().ifPresent(l -> out.put("preferredTopologyLevel", l));
  }

  private static void subGroups(ArrayNode out, SubGroupSet parent, String parentName) {
    for (SubGroupNode child : parent.children()) {
      ObjectNode s = out.addObject().put("name", child.name());
      if (parentName != null) {
        s.put("parent", parentName);
      }
      child.topologyConstraint().ifPresent(c -> constraint(s.putObject("topologyConstraint"), c));
      if (child instanceof PodSet) {
        s.put("minMember", ((PodSet) child).minMember());
      } else {
        SubGroupSet set = (SubGroupSet) child;
        set.minSubGroup().ifPresent(m -> s.put("minSubGroup", m));
      }
    }
    for (SubGroupNode child : parent.children()) {
      if (child instanceof SubGroupSet) {
        subGroups(out, (SubGroupSet) child, child.name());
      }
    }
  }

  private static void task(ObjectNode out, TaskInfo t, boolean flat) {
    out.put("name", t.podName());
    if (!flat) {
      out.put("subGroup", t.podSetName());
    }
    Resources r = t.request();
    ObjectNode resources = out.putObject("resources");
    if (r.cpuMillis() > 0) {
      resources.put(ResourceNames.CPU, r.cpuMillis() + "m");
    }
    if (r.memoryBytes() > 0) {
      resources.put(ResourceNames.MEMORY, Long.toString(r.memoryBytes()));
    }
    if (r.gpus().isPositive()) {
      resources.put(ResourceNames.GPU, Long.toString(r.gpus().wholeDevices()));
    }
    r.extended().forEach((k, v) -> resources.put(k, Long.toString(v)));
    if (t.gpuSharing().isPresent()) {
      GpuSharingRequest s = t.gpuSharing().get();
      s.fraction().ifPresent(f -> out.put("gpuFraction", f));
      s.memoryMib().ifPresent(m -> out.put("gpuMemory", m));
      if (s.numDevices() != 1) {
        out.put("gpuFractionNumDevices", s.numDevices());
      }
      if (s.computeMode() == ComputeMode.MPS) {
        out.putObject("annotations").put(GpuSharingAnnotations.MPS, "true");
      }
    }
    TaskStatus status = t.status() == TaskStatus.BINDING ? TaskStatus.BOUND : t.status();
    out.put("status", status.displayName());
    if (status.holdsNodeResources()
        || status == TaskStatus.RUNNING
        || status == TaskStatus.PIPELINED) {
      t.nodeName().ifPresent(n -> out.put("node", n));
      if (t.gpuSharing().isPresent() && !t.gpuGroups().isEmpty()) {
        ArrayNode groups = out.putArray("gpuGroups");
        t.gpuGroups().forEach(groups::add);
      }
      if (!t.gpuDevices().isEmpty()) {
        ArrayNode devices = out.putArray("gpuDevices");
        t.gpuDevices().forEach(devices::add);
      }
    }
    t.taskPriority().ifPresent(p -> out.put("taskPriority", p));
    if (!t.labels().isEmpty()) {
      out.set("labels", YAML.valueToTree(t.labels()));
    }
    if (!t.placement().nodeSelector().isEmpty()) {
      out.set("nodeSelector", YAML.valueToTree(t.placement().nodeSelector()));
    }
    if (!t.placement().tolerations().isEmpty()) {
      ArrayNode tolerations = out.putArray("tolerations");
      for (Toleration tol : t.placement().tolerations()) {
        ObjectNode o = tolerations.addObject();
        if (!tol.key().isEmpty()) {
          o.put("key", tol.key());
        }
        o.put("operator", tol.operator().k8sName());
        if (!tol.value().isEmpty()) {
          o.put("value", tol.value());
        }
        tol.effect().ifPresent(e -> o.put("effect", e.k8sName()));
      }
    }
    if (!t.placement().affinity().isEmpty()) {
      affinity(out.putObject("affinity"), t.placement().affinity());
    }
  }

  private static void affinity(ObjectNode out, Affinity a) {
    if (!a.requiredNodeTerms().isEmpty()) {
      ArrayNode terms =
          out.putObject("nodeAffinity")
              .putObject("requiredDuringSchedulingIgnoredDuringExecution")
              .putArray("nodeSelectorTerms");
      NodeSelectorJson.writeTerms(terms, a.requiredNodeTerms());
    }
    if (!a.requiredPodAffinity().isEmpty()) {
      podTerms(
          out.putObject("podAffinity").putArray("requiredDuringSchedulingIgnoredDuringExecution"),
          a.requiredPodAffinity());
    }
    if (!a.requiredPodAntiAffinity().isEmpty()) {
      podTerms(
          out.putObject("podAntiAffinity")
              .putArray("requiredDuringSchedulingIgnoredDuringExecution"),
          a.requiredPodAntiAffinity());
    }
  }

  private static void podTerms(ArrayNode out, List<PodAffinityTerm> terms) {
    for (PodAffinityTerm term : terms) {
      ObjectNode o = out.addObject();
      o.set("labelSelector", labelSelector(term.labelSelector()));
      if (!term.namespaces().isEmpty()) {
        ArrayNode ns = o.putArray("namespaces");
        term.namespaces().forEach(ns::add);
      }
      o.put("topologyKey", term.topologyKey());
    }
  }

  private static ObjectNode labelSelector(LabelSelector s) {
    ObjectNode o = YAML.createObjectNode();
    if (!s.matchLabels().isEmpty()) {
      o.set("matchLabels", YAML.valueToTree(s.matchLabels()));
    }
    if (!s.matchExpressions().isEmpty()) {
      ArrayNode expressions = o.putArray("matchExpressions");
      for (LabelSelectorRequirement r : s.matchExpressions()) {
        ObjectNode e =
            expressions.addObject().put("key", r.key()).put("operator", r.operator().k8sName());
        if (!r.values().isEmpty()) {
          ArrayNode values = e.putArray("values");
          r.values().forEach(values::add);
        }
      }
    }
    return o;
  }
}
