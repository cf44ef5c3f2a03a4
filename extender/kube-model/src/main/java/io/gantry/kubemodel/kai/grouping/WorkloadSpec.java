package io.gantry.kubemodel.kai.grouping;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The facts from a top owner's spec that its kind's grouper reads; which one a kind needs is {@link
 * WorkloadKind#specType()}. Adapters build these from the object as the API server stores it (with
 * the controller's defaults applied), so the groupers never see Kubernetes types.
 */
public sealed interface WorkloadSpec
    permits WorkloadSpec.Plain,
        WorkloadSpec.CronJobSpec,
        WorkloadSpec.KubeflowSpec,
        WorkloadSpec.RaySpec,
        WorkloadSpec.JobSetSpec,
        WorkloadSpec.LeaderWorkerSetSpec,
        WorkloadSpec.KnativeSpec,
        WorkloadSpec.SkipTopOwnerSpec {

  /** Nothing beyond the owner's metadata: pods, Deployments, Jobs, Notebooks, other kinds. */
  Plain PLAIN = new Plain();

  record Plain() implements WorkloadSpec {}

  /** A CronJob's pods are grouped by the Job that runs them, {@code job}. */
  record CronJobSpec(OwnerMeta job) implements WorkloadSpec {
    public CronJobSpec {
      requireNonNull(job, "job is null");
    }
  }

  /**
   * A Kubeflow training job (TFJob, PyTorchJob, XGBoostJob, JAXJob, MPIJob).
   *
   * @param replicaSpecs {@code spec.<kind>ReplicaSpecs} by replica type as written ({@code Master},
   *     {@code Worker}, {@code Launcher}, …), in file order
   * @param minAvailable {@code spec.runPolicy.schedulingPolicy.minAvailable}
   * @param elasticMinReplicas {@code spec.elasticPolicy.minReplicas} (PyTorchJob)
   * @param launcherCreationPolicy {@code spec.launcherCreationPolicy} (MPIJob)
   * @param launcherPodExists whether a launcher pod of the MPIJob exists and is not terminating
   */
  record KubeflowSpec(
      ImmutableMap<String, ReplicaSpec> replicaSpecs,
      OptionalInt minAvailable,
      OptionalInt elasticMinReplicas,
      Optional<String> launcherCreationPolicy,
      boolean launcherPodExists)
      implements WorkloadSpec {
    public KubeflowSpec {
      requireNonNull(replicaSpecs, "replicaSpecs is null");
      requireNonNull(minAvailable, "minAvailable is null");
      requireNonNull(elasticMinReplicas, "elasticMinReplicas is null");
      requireNonNull(launcherCreationPolicy, "launcherCreationPolicy is null");
    }
  }

  /**
   * The Ray cluster a RayCluster is, or a RayJob or RayService runs.
   *
   * @param headTemplate {@code spec.headGroupSpec.template} metadata, when there is a head group
   */
  record RaySpec(
      Optional<PodTemplateMeta> headTemplate,
      ImmutableList<RayWorkerGroup> workerGroups,
      boolean enableInTreeAutoscaling)
      implements WorkloadSpec {
    public RaySpec {
      requireNonNull(headTemplate, "headTemplate is null");
      requireNonNull(workerGroups, "workerGroups is null");
    }
  }

  /** A JobSet: {@code spec.replicatedJobs} and {@code spec.startupPolicy.startupPolicyOrder}. */
  record JobSetSpec(ImmutableList<ReplicatedJob> replicatedJobs, Optional<String> startupOrder)
      implements WorkloadSpec {
    public JobSetSpec {
      requireNonNull(replicatedJobs, "replicatedJobs is null");
      requireNonNull(startupOrder, "startupOrder is null");
    }
  }

  /**
   * A LeaderWorkerSet: {@code spec.leaderWorkerTemplate.size}, {@code spec.startupPolicy}, {@code
   * spec.leaderWorkerTemplate.subGroupPolicy.{subGroupSize, subGroupPolicyType}} and the worker
   * template's metadata.
   */
  record LeaderWorkerSetSpec(
      OptionalInt size,
      Optional<String> startupPolicy,
      OptionalInt subGroupSize,
      Optional<String> subGroupPolicyType,
      Optional<PodTemplateMeta> workerTemplate)
      implements WorkloadSpec {
    public LeaderWorkerSetSpec {
      requireNonNull(size, "size is null");
      requireNonNull(startupPolicy, "startupPolicy is null");
      requireNonNull(subGroupSize, "subGroupSize is null");
      requireNonNull(subGroupPolicyType, "subGroupPolicyType is null");
      requireNonNull(workerTemplate, "workerTemplate is null");
    }
  }

  /**
   * A Knative Service's pod is grouped by its Revision (the pod's {@code
   * serving.knative.dev/revision} label).
   *
   * @param podGroupPerPod whether the Revision's pods already have one PodGroup each (a revision
   *     grouped before gang scheduling was turned on keeps that)
   */
  record KnativeSpec(OwnerMeta revision, boolean podGroupPerPod) implements WorkloadSpec {
    public KnativeSpec {
      requireNonNull(revision, "revision is null");
    }
  }

  /**
   * A top owner that is skipped (Argo Workflow, Kubeflow TrainJob, Run:ai workloads): the pod is
   * grouped by the next owner down, {@code nextOwner}, with {@code nextSpec}; with no next owner
   * (the pod's own owner is the skipped one) the pod is grouped as a pod.
   */
  record SkipTopOwnerSpec(Optional<OwnerMeta> nextOwner, WorkloadSpec nextSpec)
      implements WorkloadSpec {
    public SkipTopOwnerSpec {
      requireNonNull(nextOwner, "nextOwner is null");
      requireNonNull(nextSpec, "nextSpec is null");
    }
  }
}
