package io.gantry.scheduler.kube.snapshot;

import static java.util.Objects.requireNonNull;

import io.gantry.kubemodel.kai.SharedGpuPods;
import io.gantry.scheduler.kube.grouping.PodGrouper;

/**
 * Why a snapshot leaves a pod or a PodGroup out as written. Each kind is formatted once, by {@link
 * #message()}, into the words the pod's condition, its events and the PodGroup's status carry.
 */
sealed interface SnapshotReason {
  /** The reason in the words written to the cluster. */
  String message();

  /** A PodGroup that KAI's object rules reject, with their words. */
  record InvalidPodGroup(String problem) implements SnapshotReason {
    public InvalidPodGroup {
      requireNonNull(problem, "problem is null");
    }

    @Override
    public String message() {
      return problem;
    }
  }

  /** A pod whose own labels or annotations cannot be read ({@link PodFacts#problem()}). */
  record InvalidPod(String problem) implements SnapshotReason {
    public InvalidPod {
      requireNonNull(problem, "problem is null");
    }

    @Override
    public String message() {
      return problem;
    }
  }

  /**
   * A pending pod whose {@value PodFacts#POD_GROUP_ANNOTATION} annotation names a PodGroup of its
   * namespace that does not exist.
   */
  record MissingPodGroup(String podGroup) implements SnapshotReason {
    public MissingPodGroup {
      requireNonNull(podGroup, "podGroup is null");
    }

    @Override
    public String message() {
      return "PodGroup \""
          + podGroup
          + "\" named by the pod's "
          + PodFacts.POD_GROUP_ANNOTATION
          + " annotation does not exist in its namespace; the pod waits until it is created";
    }
  }

  /** A pod whose SubGroup label names no leaf SubGroup of its PodGroup. */
  record UnknownSubGroup(String subGroup, String podGroup) implements SnapshotReason {
    public UnknownSubGroup {
      requireNonNull(subGroup, "subGroup is null");
      requireNonNull(podGroup, "podGroup is null");
    }

    @Override
    public String message() {
      return "SubGroup \""
          + subGroup
          + "\" of label "
          + PodFacts.SUBGROUP_LABEL
          + " does not exist in PodGroup "
          + podGroup;
    }
  }

  /** A pending pod whose DRA claims cannot be resolved yet ({@link PodClaims}). */
  record UnresolvedClaims(String problem) implements SnapshotReason {
    public UnresolvedClaims {
      requireNonNull(problem, "problem is null");
    }

    @Override
    public String message() {
      return problem;
    }
  }

  /**
   * A pending fraction pod, in reservation-pods mode, that the admission webhook never saw: nothing
   * could confine it to its shared GPU ({@link SharedGpuPods#noEnvironmentMessage}).
   */
  record NoGpuEnvironment() implements SnapshotReason {
    @Override
    public String message() {
      return SharedGpuPods.noEnvironmentMessage();
    }
  }

  /** A pod for which the {@link PodGrouper} could choose no PodGroup. */
  record Ungrouped(String problem) implements SnapshotReason {
    public Ungrouped {
      requireNonNull(problem, "problem is null");
    }

    @Override
    public String message() {
      return problem;
    }
  }
}
