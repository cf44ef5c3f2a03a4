package io.gantry.kubemodel.kai.grouping;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.kubemodel.kai.KaiObjectException;
import java.util.List;
import java.util.Map;

/**
 * A Kubeflow training job (kai-reference §3.4): one PodGroup {@code pg-<job>-<uid>}, a gang of
 * {@code spec.runPolicy.schedulingPolicy.minAvailable} pods, or of all replicas of every replica
 * type when that is not set; {@value DefaultGrouper#TRAIN} by default. Every replica type must have
 * replicas, and the kind's mandatory types must be there (XGBoostJob: Master and Worker; JAXJob:
 * Worker; MPIJob: Launcher and Worker). This class groups TFJobs, XGBoostJobs and JAXJobs; {@link
 * PyTorchJobGrouper} and {@link MpiJobGrouper} add their kinds' rules to it.
 */
public final class KubeflowGrouper implements Grouper {
  private final DefaultGrouper defaults;
  private final String replicaSpecsField;
  private final ImmutableList<String> mandatoryTypes;

  /**
   * @param replicaSpecsField the spec field holding the replica types ({@code tfReplicaSpecs})
   * @param mandatoryTypes replica types the kind requires
   */
  public KubeflowGrouper(
      DefaultGrouper defaults, String replicaSpecsField, List<String> mandatoryTypes) {
    this.defaults = requireNonNull(defaults, "defaults is null");
    this.replicaSpecsField = requireNonNull(replicaSpecsField, "replicaSpecsField is null");
    this.mandatoryTypes = ImmutableList.copyOf(mandatoryTypes);
  }

  public static KubeflowGrouper tfJob(DefaultGrouper defaults) {
    return new KubeflowGrouper(defaults, "tfReplicaSpecs", List.of());
  }

  public static KubeflowGrouper xgboostJob(DefaultGrouper defaults) {
    return new KubeflowGrouper(defaults, "xgbReplicaSpecs", List.of("Master", "Worker"));
  }

  public static KubeflowGrouper jaxJob(DefaultGrouper defaults) {
    return new KubeflowGrouper(defaults, "jaxReplicaSpecs", List.of("Worker"));
  }

  @Override
  public PodGroupPlan plan(GroupingInput input) {
    WorkloadSpec.KubeflowSpec spec = DefaultGrouper.spec(input, WorkloadSpec.KubeflowSpec.class);
    OwnerMeta job = input.topOwner();
    PodGroupPlan plan = defaults.plan(job, List.of(job), input.pod(), DefaultGrouper.TRAIN);
    if (spec.minAvailable().isPresent()) {
      return plan.withMinMember(spec.minAvailable().getAsInt());
    }
    return plan.withMinMember(totalReplicas(job, spec));
  }

  /** Every replica of every type, with KAI's checks on the replica specs. */
  private int totalReplicas(OwnerMeta job, WorkloadSpec.KubeflowSpec spec) {
    Map<String, ReplicaSpec> replicaSpecs = spec.replicaSpecs();
    String field = "spec." + replicaSpecsField;
    if (replicaSpecs.isEmpty()) {
      throw new KaiObjectException(
          field,
          "the type of the job "
              + job.name()
              + " doesn't have a "
              + replicaSpecsField
              + " field. Please fix the replica field");
    }
    for (String type : mandatoryTypes) {
      if (!replicaSpecs.containsKey(type)) {
        throw new KaiObjectException(
            field + "." + type,
            "the type of the job "
                + job.name()
                + " doesn't have a "
                + type
                + " replica spec which is required. Please fix the replica field");
      }
    }
    long total = 0;
    for (Map.Entry<String, ReplicaSpec> e : replicaSpecs.entrySet()) {
      int replicas = e.getValue().replicas().orElse(0);
      if (replicas <= 0) {
        throw new KaiObjectException(
            field + "." + e.getKey() + ".replicas",
            "the type of the job "
                + job.name()
                + " doesn't allow for 0 "
                + e.getKey()
                + " pods. Please fix the replica field");
      }
      total += replicas;
    }
    if (total > Integer.MAX_VALUE) {
      throw new KaiObjectException(field, "more than " + Integer.MAX_VALUE + " replicas in all");
    }
    return (int) total;
  }
}
