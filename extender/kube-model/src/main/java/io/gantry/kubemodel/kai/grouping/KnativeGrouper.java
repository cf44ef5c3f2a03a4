package io.gantry.kubemodel.kai.grouping;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A Knative Service, {@code serving.knative.dev/v1} (kai-reference §3.4): its pods are grouped by
 * their Revision. With gang scheduling on (KAI's default) a Revision is one PodGroup {@code
 * pg-<revision>-<uid>} owned by the Revision, of its {@value #MIN_SCALE} pods (1 when unset or not
 * a number), {@value DefaultGrouper#INFERENCE} unless the Revision's or the pod's labels name a
 * class; with gang scheduling off, or for a Revision whose pods already have a PodGroup each, every
 * pod gets its own, {@code pg-<pod>-<uid>}, always {@value DefaultGrouper#INFERENCE}. Queue, labels
 * and annotations come from the Revision; no preemptibility or topology is set.
 */
public final class KnativeGrouper implements Grouper {
  public static final String REVISION_LABEL = "serving.knative.dev/revision";
  public static final String MIN_SCALE = "autoscaling.knative.dev/min-scale";

  private final DefaultGrouper defaults;

  public KnativeGrouper(DefaultGrouper defaults) {
    this.defaults = requireNonNull(defaults, "defaults is null");
  }

  @Override
  public PodGroupPlan plan(GroupingInput input) {
    WorkloadSpec.KnativeSpec spec = DefaultGrouper.spec(input, WorkloadSpec.KnativeSpec.class);
    OwnerMeta revision = spec.revision();
    PodMeta pod = input.pod();
    boolean gang = defaults.config().knativeGangSchedule() && !spec.podGroupPerPod();
    if (!gang) {
      return new PodGroupPlan(
          DefaultGrouper.name(pod.name(), pod.uid()),
          pod.namespace(),
          new PodGroupOwner("v1", "Pod", pod.name(), pod.uid()),
          OptionalInt.of(1),
          OptionalInt.empty(),
          ImmutableList.of(),
          defaults.queue(revision, pod),
          DefaultGrouper.INFERENCE,
          Optional.empty(),
          Optional.empty(),
          DefaultGrouper.labels(revision, pod),
          DefaultGrouper.annotations(revision, pod),
          Optional.empty());
    }
    return new PodGroupPlan(
        DefaultGrouper.name(revision),
        pod.namespace(),
        PodGroupOwner.of(revision),
        OptionalInt.of(minScale(revision)),
        OptionalInt.empty(),
        ImmutableList.of(),
        defaults.queue(revision, pod),
        defaults.priorityClassName(List.of(revision), pod, DefaultGrouper.INFERENCE),
        Optional.empty(),
        Optional.empty(),
        DefaultGrouper.labels(revision, pod),
        DefaultGrouper.annotations(revision, pod),
        Optional.empty());
  }

  private static int minScale(OwnerMeta revision) {
    String value = revision.annotations().get(MIN_SCALE);
    if (value == null) {
      return 1;
    }
    try {
      return Integer.parseInt(value);
    } catch (NumberFormatException e) {
      return 1;
    }
  }
}
