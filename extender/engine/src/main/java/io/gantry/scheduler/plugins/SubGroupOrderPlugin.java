package io.gantry.scheduler.plugins;

import io.gantry.scheduler.framework.SubGroupOrder;
import io.gantry.scheduler.framework.SubGroupProgress;

/**
 * Unsatisfied SubGroups before satisfied ones; among satisfied, required (threshold > 0) before
 * optional; two optional: fewer allocated first; else lower allocated/threshold first
 * (kai-reference §4.4).
 */
public final class SubGroupOrderPlugin implements SubGroupOrder {
  public static final String NAME = "subgrouporder";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public int compareSubGroups(SubGroupProgress a, SubGroupProgress b) {
    if (a.satisfied() != b.satisfied()) {
      return a.satisfied() ? 1 : -1;
    }
    if (!a.satisfied()) {
      return 0;
    }
    boolean requiredA = a.threshold() > 0;
    boolean requiredB = b.threshold() > 0;
    if (requiredA != requiredB) {
      return requiredA ? -1 : 1;
    }
    if (!requiredA) {
      return Long.compare(a.allocated(), b.allocated());
    }
    return Double.compare(
        (double) a.allocated() / a.threshold(), (double) b.allocated() / b.threshold());
  }
}
