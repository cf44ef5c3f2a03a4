package io.gantry.scheduler.sim.spec;

import com.google.common.collect.ImmutableMap;
import io.gantry.kubemodel.read.Field;
import io.gantry.kubemodel.read.ScenarioException;

/**
 * KAI's annotations on a workload or its pod templates that ask for what this build does not
 * simulate; each is an error naming it rather than an annotation passed over.
 */
final class KaiAnnotations {
  private static final String NO_OWN_PODGROUP =
      "the simulator has no PodGroup of the user's for these pods to join";

  private static final ImmutableMap<String, String> UNSUPPORTED =
      ImmutableMap.<String, String>builder()
          .put("kai.scheduler/preemption-delay", "preemption delay is not supported yet")
          .put("kai.scheduler/staleness-grace-period", "stale gang eviction is not supported yet")
          .put("kai.scheduler/skip-podgrouper", NO_OWN_PODGROUP)
          .put("pod-group-name", NO_OWN_PODGROUP)
          .buildOrThrow();

  private KaiAnnotations() {}

  /** Rejects the first annotation under {@code annotations} this build cannot simulate. */
  static void check(Field annotations) throws ScenarioException {
    for (Field entry : annotations.asOpenMap().fields()) {
      String reason = UNSUPPORTED.get(entry.key());
      boolean skipped =
          !entry.key().equals("kai.scheduler/skip-podgrouper") || entry.asString().equals("true");
      if (reason != null && skipped) {
        throw entry.error(reason);
      }
    }
  }
}
