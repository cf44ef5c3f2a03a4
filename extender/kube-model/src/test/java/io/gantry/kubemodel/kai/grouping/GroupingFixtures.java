package io.gantry.kubemodel.kai.grouping;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import io.gantry.scheduler.model.PodSet;
import io.gantry.scheduler.model.SubGroupNode;
import io.gantry.scheduler.model.SubGroupSet;
import io.gantry.scheduler.model.TopologyConstraint;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Collectors;

/** Builders for grouping inputs, and the text a plan is pinned as in the groupers' table tests. */
final class GroupingFixtures {
  static final String NS = "ml";

  private GroupingFixtures() {}

  static PodGroupPlanner planner() {
    return new PodGroupPlanner(GroupingConfig.kaiDefaults());
  }

  static DefaultGrouper defaults() {
    return new DefaultGrouper(GroupingConfig.kaiDefaults());
  }

  /** An owner whose UID is {@code <name>-uid}. */
  static OwnerMeta owner(String apiVersion, String kind, String name) {
    return owner(apiVersion, kind, name, Map.of(), Map.of());
  }

  static OwnerMeta owner(
      String apiVersion,
      String kind,
      String name,
      Map<String, String> labels,
      Map<String, String> annotations) {
    return OwnerMeta.of(apiVersion, kind, name, name + "-uid", labels, annotations);
  }

  /** A pending pod whose UID is {@code <name>-uid}. */
  static PodMeta pod(String name, Map<String, String> labels) {
    return pod(name, labels, Map.of());
  }

  static PodMeta pod(String name, Map<String, String> labels, Map<String, String> annotations) {
    return PodMeta.of(NS, name, name + "-uid", labels, annotations, Optional.empty(), false);
  }

  static PodTemplateMeta template(Map<String, String> annotations) {
    return PodTemplateMeta.of(Map.of(), annotations);
  }

  static ReplicaSpec replicas(int n) {
    return new ReplicaSpec(OptionalInt.of(n), PodTemplateMeta.EMPTY);
  }

  static WorkloadSpec.KubeflowSpec kubeflow(Map<String, ReplicaSpec> replicaSpecs) {
    return new WorkloadSpec.KubeflowSpec(
        ImmutableMap.copyOf(replicaSpecs),
        OptionalInt.empty(),
        OptionalInt.empty(),
        Optional.empty(),
        false);
  }

  static ImmutableList<OwnerMeta> chain(OwnerMeta... owners) {
    return ImmutableList.copyOf(owners);
  }

  /** Every field of a plan, one per line; empty optionals as {@code -}. */
  static String text(PodGroupPlan plan) {
    StringBuilder out = new StringBuilder();
    out.append("name: ").append(plan.name()).append('\n');
    out.append("namespace: ").append(plan.namespace()).append('\n');
    PodGroupOwner o = plan.owner();
    out.append("owner: ")
        .append(o.apiVersion())
        .append(' ')
        .append(o.kind())
        .append(' ')
        .append(o.name())
        .append(" (")
        .append(o.uid())
        .append(")\n");
    out.append("minMember: ").append(text(plan.minMember())).append('\n');
    out.append("minSubGroup: ").append(text(plan.minSubGroup())).append('\n');
    out.append("queue: ").append(plan.queue()).append('\n');
    out.append("priorityClassName: ").append(plan.priorityClassName()).append('\n');
    out.append("preemptibility: ")
        .append(plan.preemptibility().map(p -> p.k8sName()).orElse("-"))
        .append('\n');
    out.append("topology: ").append(text(plan.topologyConstraint())).append('\n');
    if (!plan.labels().isEmpty()) {
      out.append("labels: ").append(plan.labels()).append('\n');
    }
    if (!plan.annotations().isEmpty()) {
      out.append("annotations: ").append(plan.annotations()).append('\n');
    }
    if (!plan.subGroups().isEmpty()) {
      out.append("subGroups:\n");
      for (PlannedSubGroup s : plan.subGroups()) {
        out.append("  ").append(s.name());
        s.parent().ifPresent(p -> out.append(" parent=").append(p));
        s.minMember().ifPresent(m -> out.append(" minMember=").append(m));
        s.minSubGroup().ifPresent(m -> out.append(" minSubGroup=").append(m));
        s.topologyConstraint()
            .ifPresent(t -> out.append(" topology=").append(text(s.topologyConstraint())));
        out.append('\n');
      }
    }
    out.append("podSubGroup: ").append(plan.podSubGroup().orElse("-")).append('\n');
    return out.toString();
  }

  /** The fields that decide the gang and its place, on one line. */
  static String summary(PodGroupPlan plan) {
    return plan.name()
        + " owner="
        + plan.owner().kind()
        + "/"
        + plan.owner().name()
        + " minMember="
        + text(plan.minMember())
        + " minSubGroup="
        + text(plan.minSubGroup())
        + " queue="
        + plan.queue()
        + " class="
        + plan.priorityClassName()
        + " preemptibility="
        + plan.preemptibility().map(p -> p.k8sName()).orElse("-")
        + " leaf="
        + plan.podSubGroup().orElse("-");
  }

  private static String text(OptionalInt value) {
    return value.isPresent() ? Integer.toString(value.getAsInt()) : "-";
  }

  private static String text(Optional<TopologyConstraint> constraint) {
    return constraint
        .map(
            c ->
                c.topology()
                    + "/required="
                    + c.requiredLevel().orElse("-")
                    + "/preferred="
                    + c.preferredLevel().orElse("-"))
        .orElse("-");
  }

  /** The SubGroup tree the scheduler reads, as {@code name(min)[children]}. */
  static String tree(PodGroupPlan plan) {
    return node(plan.tree());
  }

  private static String node(SubGroupNode n) {
    if (n instanceof PodSet p) {
      return p.name() + "(" + p.minMember() + ")";
    }
    SubGroupSet s = (SubGroupSet) n;
    return s.name()
        + "{"
        + s.required()
        + "}["
        + s.children().stream().map(GroupingFixtures::node).collect(Collectors.joining(" "))
        + "]";
  }
}
