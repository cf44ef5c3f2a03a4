package io.gantry.extender;

import io.gantry.extender.wire.RequestPod;
import io.gantry.scheduler.model.ClusterSnapshot;
import java.util.List;

/**
 * Puts the pods of requests into a cluster held in memory ({@link InMemoryCluster}) as KAI's
 * podgrouper groups them (kai-reference §1.3, §3.4). The command line builds it: reading a pod into
 * the engine's values belongs to the scenario reader, which the extender does not import.
 */
@FunctionalInterface
public interface RequestPodGrouper {
  /**
   * The cluster's starting snapshot with {@code pods} added, in order, each a pending task of the
   * PodGroup the podgrouper gives it.
   *
   * @throws IllegalArgumentException saying why a pod cannot be grouped
   */
  ClusterSnapshot startWith(List<RequestPod> pods);
}
