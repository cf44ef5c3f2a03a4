package io.gantry.kubemodel.kai.grouping;

import static java.util.Objects.requireNonNull;

import io.gantry.kubemodel.kai.KaiObjectException;
import java.util.List;

/**
 * An MPIJob, {@code kubeflow.org/v1} or {@code v2beta1} (kai-reference §3.4): the Kubeflow gang
 * over {@code mpiReplicaSpecs}, which must have a Launcher and a Worker; the launcher counts in the
 * gang. The launcher rule: with {@code launcherCreationPolicy: WaitForWorkersReady} the operator
 * creates the launcher only once the workers are ready, so while no launcher pod exists the gang
 * leaves the Launcher replicas out.
 */
public final class MpiJobGrouper implements Grouper {
  public static final String LAUNCHER = "Launcher";
  public static final String WORKER = "Worker";
  public static final String WAIT_FOR_WORKERS_READY = "WaitForWorkersReady";

  private final KubeflowGrouper kubeflow;

  public MpiJobGrouper(DefaultGrouper defaults) {
    requireNonNull(defaults, "defaults is null");
    this.kubeflow = new KubeflowGrouper(defaults, "mpiReplicaSpecs", List.of(LAUNCHER, WORKER));
  }

  @Override
  public PodGroupPlan plan(GroupingInput input) {
    WorkloadSpec.KubeflowSpec spec = DefaultGrouper.spec(input, WorkloadSpec.KubeflowSpec.class);
    PodGroupPlan plan = kubeflow.plan(input);
    boolean delayedLauncher =
        spec.launcherCreationPolicy().filter(WAIT_FOR_WORKERS_READY::equals).isPresent();
    if (!delayedLauncher || spec.launcherPodExists()) {
      return plan;
    }
    ReplicaSpec launcher = spec.replicaSpecs().get(LAUNCHER);
    int launchers = launcher == null ? 0 : launcher.replicas().orElse(0);
    if (launchers <= 0) {
      throw new KaiObjectException(
          "spec.mpiReplicaSpecs." + LAUNCHER + ".replicas",
          "the type of the job "
              + input.topOwner().name()
              + " doesn't allow for 0 mpiReplicaSpecs pods. Please fix the replica field");
    }
    return plan.withMinMember(plan.minMember().orElse(1) - launchers);
  }
}
