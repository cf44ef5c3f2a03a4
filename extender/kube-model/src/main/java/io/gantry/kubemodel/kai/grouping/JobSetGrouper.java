package io.gantry.kubemodel.kai.grouping;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.kubemodel.kai.KaiObjectException;
import io.gantry.scheduler.model.TopologyConstraint;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A JobSet, {@code jobset.x-k8s.io/v1alpha2} (kai-reference §3.4): one PodGroup {@code
 * pg-<jobset>-<uid>} with a two-level SubGroup tree — a parent per replicatedJob needing all its
 * {@code replicas}, and under it a leaf {@code <replicatedJob>-replica-<index>} per replica needing
 * the Job template's {@code parallelism} pods (default 1) or its {@value
 * DefaultGrouper#MIN_MEMBER_OVERRIDE}. The root needs 1 replicatedJob with startup policy {@value
 * #IN_ORDER} (the JobSet controller starts them one at a time), else all of them; the JobSet's
 * {@value DefaultGrouper#MIN_MEMBER_OVERRIDE} sets it instead (at most their number). A pod belongs
 * to the leaf its {@value #REPLICATED_JOB_LABEL} and {@value #JOB_INDEX_LABEL} labels name.
 */
public final class JobSetGrouper implements Grouper {
  public static final String REPLICATED_JOB_LABEL = "jobset.sigs.k8s.io/replicatedjob-name";
  public static final String JOB_INDEX_LABEL = "jobset.sigs.k8s.io/job-index";
  public static final String IN_ORDER = "InOrder";

  private final DefaultGrouper defaults;

  public JobSetGrouper(DefaultGrouper defaults) {
    this.defaults = requireNonNull(defaults, "defaults is null");
  }

  @Override
  public PodGroupPlan plan(GroupingInput input) {
    WorkloadSpec.JobSetSpec spec = DefaultGrouper.spec(input, WorkloadSpec.JobSetSpec.class);
    OwnerMeta jobSet = input.topOwner();
    if (jobSet.uid().isEmpty()) {
      throw new KaiObjectException("metadata.uid", "jobset " + jobSet.name() + " has no UID");
    }
    if (spec.replicatedJobs().isEmpty()) {
      throw new KaiObjectException(
          "spec.replicatedJobs",
          "jobset " + input.pod().namespace() + "/" + jobSet.name() + " has no replicatedJobs");
    }
    PodGroupPlan plan = defaults.plan(jobSet, List.of(jobSet), input.pod(), DefaultGrouper.TRAIN);
    ImmutableList<PlannedSubGroup> subGroups = subGroups(spec.replicatedJobs());
    return plan.withSubGroups(
        OptionalInt.of(minSubGroup(jobSet, spec)), subGroups, Optional.of(leaf(input, subGroups)));
  }

  private static int minSubGroup(OwnerMeta jobSet, WorkloadSpec.JobSetSpec spec) {
    int replicatedJobs = spec.replicatedJobs().size();
    String override = jobSet.annotations().get(DefaultGrouper.MIN_MEMBER_OVERRIDE);
    if (override != null) {
      return Math.min(
          replicatedJobs,
          DefaultGrouper.minMemberOverride(override, BatchJobGrouper.MIN_MEMBER_FIELD));
    }
    return spec.startupOrder().filter(IN_ORDER::equals).isPresent() ? 1 : replicatedJobs;
  }

  /**
   * The SubGroups of the replicatedJobs. Two that would share a name are reported here, at the
   * JobSet's own {@code spec.replicatedJobs[i].name}, rather than by the PodGroup's shape check at
   * the planned {@code subGroups[k].name}, a list the JobSet's author never wrote.
   */
  private static ImmutableList<PlannedSubGroup> subGroups(List<ReplicatedJob> replicatedJobs) {
    ImmutableList.Builder<PlannedSubGroup> out = ImmutableList.builder();
    Map<String, String> madeBy = new HashMap<>();
    for (int i = 0; i < replicatedJobs.size(); i++) {
      ReplicatedJob rj = replicatedJobs.get(i);
      String field = "spec.replicatedJobs[" + i + "]";
      if (rj.name().isEmpty()) {
        throw new KaiObjectException(field + ".name", "replicatedJobs[" + i + "] missing name");
      }
      int replicas = rj.replicas().orElse(1);
      int leafMin = leafMinMember(rj, field);
      Optional<TopologyConstraint> topology = leafTopology(rj.jobTemplate().annotations());
      claim(madeBy, rj.name(), field, "");
      out.add(PlannedSubGroup.inner(rj.name(), Optional.empty(), OptionalInt.of(replicas)));
      for (int r = 0; r < replicas; r++) {
        String leaf = leafName(rj.name(), Integer.toString(r));
        claim(madeBy, leaf, field, "replica " + r + " of ");
        out.add(
            PlannedSubGroup.leaf(leaf, Optional.of(rj.name()), leafMin)
                .withTopologyConstraint(topology));
      }
    }
    return out.build();
  }

  /** Records that {@code replica} ("" or "replica r of ") of {@code field} makes {@code name}. */
  private static void claim(Map<String, String> madeBy, String name, String field, String replica) {
    String earlier = madeBy.putIfAbsent(name, replica + field);
    if (earlier != null) {
      throw new KaiObjectException(
          field + ".name",
          "the SubGroup \""
              + name
              + "\" of "
              + replica
              + "this replicatedJob is already the SubGroup of "
              + earlier
              + "; replicatedJob names must be unique and must not end in -replica-<index>");
    }
  }

  private static int leafMinMember(ReplicatedJob rj, String field) {
    String override = rj.jobTemplate().annotations().get(DefaultGrouper.MIN_MEMBER_OVERRIDE);
    if (override == null || override.isEmpty()) {
      return rj.parallelism().orElse(1);
    }
    return DefaultGrouper.minMemberOverride(
        override, field + ".template.metadata.annotations." + DefaultGrouper.MIN_MEMBER_OVERRIDE);
  }

  private static Optional<TopologyConstraint> leafTopology(Map<String, String> annotations) {
    String topology = annotations.getOrDefault(DefaultGrouper.TOPOLOGY, "");
    Optional<String> required =
        DefaultGrouper.nonEmpty(annotations.get(DefaultGrouper.TOPOLOGY_REQUIRED));
    Optional<String> preferred =
        DefaultGrouper.nonEmpty(annotations.get(DefaultGrouper.TOPOLOGY_PREFERRED));
    if (topology.isEmpty() || (required.isEmpty() && preferred.isEmpty())) {
      return Optional.empty();
    }
    return Optional.of(new TopologyConstraint(topology, required, preferred));
  }

  private static String leaf(GroupingInput input, List<PlannedSubGroup> subGroups) {
    PodMeta pod = input.pod();
    String replicatedJob = requiredLabel(pod, REPLICATED_JOB_LABEL);
    String index = requiredLabel(pod, JOB_INDEX_LABEL);
    String leaf = leafName(replicatedJob, index);
    if (subGroups.stream().noneMatch(s -> s.name().equals(leaf))) {
      throw new KaiObjectException(
          "pod.metadata.labels." + JOB_INDEX_LABEL,
          "leaf subgroup \"" + leaf + "\" not found for pod " + pod.namespace() + "/" + pod.name());
    }
    return leaf;
  }

  private static String requiredLabel(PodMeta pod, String label) {
    String value = pod.labels().getOrDefault(label, "");
    if (value.isEmpty()) {
      throw new KaiObjectException(
          "pod.metadata.labels." + label,
          "pod "
              + pod.namespace()
              + "/"
              + pod.name()
              + " missing required label \""
              + label
              + "\"");
    }
    return value;
  }

  static String leafName(String replicatedJob, String index) {
    return replicatedJob + "-replica-" + index;
  }
}
