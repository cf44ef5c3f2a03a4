package io.gantry.kubemodel.kai.grouping;

import static io.gantry.kubemodel.kai.grouping.GroupingFixtures.owner;
import static io.gantry.kubemodel.kai.grouping.GroupingFixtures.pod;
import static io.gantry.kubemodel.kai.grouping.GroupingFixtures.replicas;
import static io.gantry.kubemodel.kai.grouping.GroupingFixtures.summary;
import static io.gantry.kubemodel.kai.grouping.GroupingFixtures.text;
import static io.gantry.kubemodel.kai.grouping.GroupingFixtures.tree;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.collect.ImmutableMap;
import io.gantry.kubemodel.kai.KaiObjectException;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** MPIJobs: the launcher counts in the gang, except while a delayed launcher does not exist. */
class MpiJobGrouperTest {
  private static final PodMeta WORKER =
      pod("mpi-worker-0", Map.of("training.kubeflow.org/job-role", "worker"));

  static WorkloadSpec.KubeflowSpec mpi(
      OptionalInt minAvailable, Optional<String> launcherPolicy, boolean launcherExists) {
    return new WorkloadSpec.KubeflowSpec(
        ImmutableMap.of("Launcher", replicas(1), "Worker", replicas(4)),
        minAvailable,
        OptionalInt.empty(),
        launcherPolicy,
        launcherExists);
  }

  record Case(String name, String apiVersion, WorkloadSpec.KubeflowSpec spec, String summary) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    String name = "pg-mpi-mpi-uid owner=MPIJob/mpi";
    String rest = " minSubGroup=- queue=default-queue class=train preemptibility=- leaf=-";
    return Stream.of(
        new Case(
            "v2beta1: the launcher and the workers",
            "kubeflow.org/v2beta1",
            mpi(OptionalInt.empty(), Optional.empty(), false),
            name + " minMember=5" + rest),
        new Case(
            "v1: the same gang",
            "kubeflow.org/v1",
            mpi(OptionalInt.empty(), Optional.of("AtStartup"), false),
            name + " minMember=5" + rest),
        new Case(
            "WaitForWorkersReady before the launcher exists: the workers only",
            "kubeflow.org/v2beta1",
            mpi(OptionalInt.empty(), Optional.of("WaitForWorkersReady"), false),
            name + " minMember=4" + rest),
        new Case(
            "WaitForWorkersReady once the launcher exists: the launcher joins",
            "kubeflow.org/v2beta1",
            mpi(OptionalInt.empty(), Optional.of("WaitForWorkersReady"), true),
            name + " minMember=5" + rest),
        new Case(
            "minAvailable, less the delayed launcher",
            "kubeflow.org/v2beta1",
            mpi(OptionalInt.of(3), Optional.of("WaitForWorkersReady"), false),
            name + " minMember=2" + rest));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void plans(Case c) {
    OwnerMeta job = owner(c.apiVersion(), "MPIJob", "mpi");
    PodGroupPlan plan =
        GroupingFixtures.planner().plan(GroupingInput.ownedBy(job, c.spec(), WORKER));

    assertThat(summary(plan)).isEqualTo(c.summary());
    assertThat(plan.subGroups()).isEmpty();
  }

  @Test
  void anMpiJobWithALauncherIsOneFlatGang() {
    OwnerMeta job = owner("kubeflow.org/v2beta1", "MPIJob", "mpi");
    PodGroupPlan plan =
        GroupingFixtures.planner()
            .plan(
                GroupingInput.ownedBy(
                    job, mpi(OptionalInt.empty(), Optional.empty(), false), WORKER));

    assertThat(text(plan))
        .isEqualTo(
            """
            name: pg-mpi-mpi-uid
            namespace: ml
            owner: kubeflow.org/v2beta1 MPIJob mpi (mpi-uid)
            minMember: 5
            minSubGroup: -
            queue: default-queue
            priorityClassName: train
            preemptibility: -
            topology: -
            podSubGroup: -
            """);
    assertThat(tree(plan)).isEqualTo("{1}[default(5)]");
  }

  @Test
  void anMpiJobNeedsALauncherAndWorkers() {
    OwnerMeta job = owner("kubeflow.org/v2beta1", "MPIJob", "mpi");
    WorkloadSpec.KubeflowSpec noLauncher =
        GroupingFixtures.kubeflow(ImmutableMap.of("Worker", replicas(2)));

    assertThatThrownBy(
            () -> GroupingFixtures.planner().plan(GroupingInput.ownedBy(job, noLauncher, WORKER)))
        .isInstanceOfSatisfying(
            KaiObjectException.class,
            e -> {
              assertThat(e.field()).isEqualTo("spec.mpiReplicaSpecs.Launcher");
              assertThat(e.problem())
                  .isEqualTo(
                      "the type of the job mpi doesn't have a Launcher replica spec which is"
                          + " required. Please fix the replica field");
            });
  }
}
