package io.gantry.scheduler.kube.snapshot;

import io.gantry.scheduler.kube.grouping.PodGrouper;
import java.util.Optional;

/**
 * The PodGroups the {@link PodGrouper} chose for pods that name none themselves, and why it could
 * not choose one for others.
 */
public interface PodGroupAssignments {
  /** No pod is grouped and none has a problem: a reader of the cluster that groups nothing. */
  PodGroupAssignments NONE =
      new PodGroupAssignments() {
        @Override
        public Optional<String> assigned(String podKey) {
          return Optional.empty();
        }

        @Override
        public Optional<String> problem(String podKey) {
          return Optional.empty();
        }
      };

  /**
   * The name of the PodGroup (in the pod's namespace) chosen for the pod.
   *
   * @param podKey {@code namespace/name}
   */
  Optional<String> assigned(String podKey);

  /**
   * Why no PodGroup could be chosen for the pod (an owner that cannot be read); the pod waits with
   * it as its message.
   *
   * @param podKey {@code namespace/name}
   */
  Optional<String> problem(String podKey);
}
