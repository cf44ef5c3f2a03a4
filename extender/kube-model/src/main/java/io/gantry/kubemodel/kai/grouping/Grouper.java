package io.gantry.kubemodel.kai.grouping;

/**
 * One of KAI's podgrouper plugins: the PodGroup a pod of its kind belongs to. Groupers are pure
 * functions of their input and configuration, so every pod of a workload gets the same PodGroup
 * (but for {@link PodGroupPlan#podSubGroup()}), and they are safe to call from any thread.
 */
public interface Grouper {
  /**
   * The pod's PodGroup.
   *
   * @throws KaiObjectException when the workload breaks a rule of its kind; the field is a path in
   *     the top owner ({@code spec.pytorchReplicaSpecs.Worker.replicas}) or, prefixed {@code pod.},
   *     in the pod ({@code pod.metadata.labels.jobset.sigs.k8s.io/job-index})
   * @throws IllegalArgumentException when the input's spec is not the one the kind reads
   */
  PodGroupPlan plan(GroupingInput input);
}
