package io.gantry.scheduler.framework;

/** Read-only state of one shared GPU on a node, for scoring and reports. */
public record GpuGroupView(String id, double allocatedPortion, double releasingPortion) {
  /** Portion a new task can take without waiting for releasing tasks. */
  public double idlePortion() {
    return Math.max(0, Math.round((1.0 - allocatedPortion - releasingPortion) * 100.0) / 100.0);
  }

  /** Portion a new task can take once releasing tasks are gone (pipelining). */
  public double idleOrReleasingPortion() {
    return Math.max(0, Math.round((1.0 - allocatedPortion) * 100.0) / 100.0);
  }

  public double usedPortion() {
    return Math.round((allocatedPortion + releasingPortion) * 100.0) / 100.0;
  }
}
