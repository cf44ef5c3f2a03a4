package io.gantry.scheduler.kube.snapshot;

import com.google.common.collect.ImmutableList;
import io.gantry.kubemodel.kai.PodGroupLifecycle;
import io.gantry.kubemodel.kai.PodGroupShape;
import io.gantry.kubemodel.kai.Preemptibility;
import io.gantry.kubemodel.kai.PriorityClassTable;
import io.gantry.kubemodel.kai.SubGroupDefinition;
import io.gantry.scheduler.kube.crd.KaiPodGroup;
import io.gantry.scheduler.kube.crd.KaiPodGroupSpec;
import io.gantry.scheduler.kube.crd.KaiSubGroup;
import io.gantry.scheduler.model.JobInfo;
import io.gantry.scheduler.model.SubGroupSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A PodGroup as the engine's {@link JobInfo} (without tasks), with KAI's rules: priority from the
 * cluster's PriorityClasses ({@link PriorityClassTable}), preemptibility ({@link Preemptibility}),
 * the gang as a SubGroup tree ({@link PodGroupShape}, which throws {@code KaiObjectException}
 * naming the field of a PodGroup KAI's webhook would refuse), with the PodGroup's and each
 * SubGroup's {@code topologyConstraint}, and its lifecycle: the timestamps KAI keeps in annotations
 * and the spec's delays ({@link PodGroupLifecycle}).
 */
public final class PodGroupReader {
  private PodGroupReader() {}

  static String jobId(String namespace, String name) {
    return namespace + "/" + name;
  }

  static JobInfo read(KaiPodGroup pg, PriorityClassTable priorities, long creationOrder) {
    KaiPodGroupSpec spec = spec(pg);
    int priority = priorities.priorityOf(Optional.ofNullable(spec.priorityClassName()));
    boolean preemptible =
        Preemptibility.isPreemptible(
            Optional.ofNullable(spec.preemptibility()).flatMap(Preemptibility::parse), priority);
    List<SubGroupDefinition> subGroups = new ArrayList<>();
    if (spec.subGroups() != null) {
      for (KaiSubGroup s : spec.subGroups()) {
        subGroups.add(
            new SubGroupDefinition(
                s.name() == null ? "" : s.name(),
                Optional.ofNullable(s.parent()).filter(p -> !p.isEmpty()),
                optional(s.minMember()),
                optional(s.minSubGroup()),
                TopologyReader.constraint(s.topologyConstraint())));
      }
    }
    SubGroupSet root =
        PodGroupShape.tree(
            optional(spec.minMember()),
            optional(spec.minSubGroup()),
            TopologyReader.constraint(spec.topologyConstraint()),
            subGroups);
    String namespace = pg.getMetadata().getNamespace();
    String name = pg.getMetadata().getName();
    return new JobInfo(
        jobId(namespace, name),
        name,
        namespace,
        spec.queue() == null ? "" : spec.queue(),
        priority,
        preemptible,
        created(pg),
        creationOrder,
        root,
        ImmutableList.of(),
        PodGroupLifecycle.read(
            annotations(pg),
            Optional.ofNullable(spec.preemptionDelay()),
            Optional.ofNullable(spec.stalenessGracePeriod())));
  }

  public static Map<String, String> annotations(KaiPodGroup pg) {
    Map<String, String> annotations = pg.getMetadata().getAnnotations();
    return annotations == null ? Map.of() : annotations;
  }

  public static KaiPodGroupSpec spec(KaiPodGroup pg) {
    return pg.spec() == null
        ? new KaiPodGroupSpec(null, null, null, null, null, null, null, null, null, null, null)
        : pg.spec();
  }

  public static boolean markUnschedulable(KaiPodGroup pg) {
    return !Boolean.FALSE.equals(spec(pg).markUnschedulable());
  }

  static Instant created(KaiPodGroup pg) {
    return pg.getMetadata().getCreationTimestamp() == null
        ? Instant.EPOCH
        : pg.getMetadata().getCreationTimestamp().toInstant();
  }

  private static OptionalInt optional(Integer i) {
    return i == null ? OptionalInt.empty() : OptionalInt.of(i);
  }
}
