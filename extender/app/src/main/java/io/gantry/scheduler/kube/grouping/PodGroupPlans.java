package io.gantry.scheduler.kube.grouping;

import io.gantry.kubemodel.kai.Preemptibility;
import io.gantry.kubemodel.kai.grouping.PlannedSubGroup;
import io.gantry.kubemodel.kai.grouping.PodGroupPlan;
import io.gantry.scheduler.kube.crd.KaiPodGroup;
import io.gantry.scheduler.kube.crd.KaiPodGroupSpec;
import io.gantry.scheduler.kube.crd.KaiSubGroup;
import io.gantry.scheduler.kube.crd.KaiTopologyConstraint;
import io.gantry.scheduler.kube.snapshot.PodGroupReader;
import io.gantry.scheduler.model.TopologyConstraint;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;

/**
 * A planned PodGroup ({@link PodGroupPlan}) as the {@code scheduling.run.ai/v2alpha2} object the
 * pod grouper writes: owned by the plan's owner (so it is garbage collected with it), labelled and
 * annotated as the top owner is, and its spec as KAI's podgrouper writes it.
 */
final class PodGroupPlans {
  private PodGroupPlans() {}

  static KaiPodGroup podGroup(PodGroupPlan plan) {
    V1ObjectMeta meta =
        new V1ObjectMeta()
            .name(plan.name())
            .namespace(plan.namespace())
            .labels(plan.labels().isEmpty() ? null : new TreeMap<>(plan.labels()))
            .annotations(plan.annotations().isEmpty() ? null : new TreeMap<>(plan.annotations()))
            .ownerReferences(
                List.of(
                    new V1OwnerReference()
                        .apiVersion(plan.owner().apiVersion())
                        .kind(plan.owner().kind())
                        .name(plan.owner().name())
                        .uid(plan.owner().uid())));
    return new KaiPodGroup(
        KaiPodGroup.GROUP + "/" + KaiPodGroup.VERSION, KaiPodGroup.KIND, meta, spec(plan), null);
  }

  static KaiPodGroupSpec spec(PodGroupPlan plan) {
    List<KaiSubGroup> subGroups =
        plan.subGroups().isEmpty()
            ? null
            : plan.subGroups().stream().map(PodGroupPlans::subGroup).toList();
    return new KaiPodGroupSpec(
        integer(plan.minMember()),
        integer(plan.minSubGroup()),
        plan.queue(),
        plan.priorityClassName(),
        plan.preemptibility().map(Preemptibility::k8sName).orElse(null),
        topology(plan.topologyConstraint()),
        subGroups,
        null,
        null,
        null,
        null);
  }

  /**
   * Whether {@code existing} already is what the plan asks for: the spec fields the pod grouper
   * writes, and the labels and annotations it sets (others, such as the scheduler's lifecycle
   * annotations, may be there too).
   */
  static boolean matches(KaiPodGroup existing, KaiPodGroup desired) {
    KaiPodGroupSpec a = PodGroupReader.spec(existing);
    KaiPodGroupSpec b = desired.spec();
    return Objects.equals(a.minMember(), b.minMember())
        && Objects.equals(a.minSubGroup(), b.minSubGroup())
        && Objects.equals(a.queue(), b.queue())
        && Objects.equals(a.priorityClassName(), b.priorityClassName())
        && Objects.equals(a.preemptibility(), b.preemptibility())
        && Objects.equals(a.topologyConstraint(), b.topologyConstraint())
        && Objects.equals(a.subGroups(), b.subGroups())
        && contains(existing.getMetadata().getLabels(), desired.getMetadata().getLabels())
        && contains(
            existing.getMetadata().getAnnotations(), desired.getMetadata().getAnnotations());
  }

  /** Whether {@code pg} is owned by the object {@code desired} names as its owner. */
  static boolean sameOwner(KaiPodGroup pg, KaiPodGroup desired) {
    String uid = desired.getMetadata().getOwnerReferences().get(0).getUid();
    List<V1OwnerReference> refs = pg.getMetadata().getOwnerReferences();
    return refs != null && refs.stream().anyMatch(r -> uid.equals(r.getUid()));
  }

  private static boolean contains(Map<String, String> actual, Map<String, String> wanted) {
    if (wanted == null) {
      return true;
    }
    Map<String, String> have = actual == null ? Map.of() : actual;
    return wanted.entrySet().stream().allMatch(e -> e.getValue().equals(have.get(e.getKey())));
  }

  private static KaiSubGroup subGroup(PlannedSubGroup s) {
    return new KaiSubGroup(
        s.name(),
        s.parent().orElse(null),
        integer(s.minMember()),
        integer(s.minSubGroup()),
        topology(s.topologyConstraint()));
  }

  private static KaiTopologyConstraint topology(Optional<TopologyConstraint> constraint) {
    return constraint
        .map(
            c ->
                new KaiTopologyConstraint(
                    c.topology(), c.requiredLevel().orElse(null), c.preferredLevel().orElse(null)))
        .orElse(null);
  }

  private static Integer integer(OptionalInt value) {
    return value.isPresent() ? value.getAsInt() : null;
  }
}
