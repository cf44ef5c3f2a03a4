package io.gantry.scheduler.sim.spec;

import io.gantry.kubemodel.read.Field;
import io.gantry.kubemodel.read.ScenarioException;

/** The pods a scenario may still expand to ({@code --max-pods}), taken workload by workload. */
final class PodBudget {
  private final int max;
  private long used;

  PodBudget(int max, long used) {
    this.max = max;
    this.used = used;
  }

  /** Takes {@code pods} more, blaming {@code at} when that passes the limit. */
  void take(long pods, Field at) throws ScenarioException {
    if (pods > max - used) {
      throw at.error(ExpansionCheck.over(used + pods, "pods", max, "--max-pods"));
    }
    used += pods;
  }
}
