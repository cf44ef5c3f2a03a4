package io.gantry.extender;

import io.gantry.scheduler.kube.LiveSchedulerWiring;

/**
 * Breaks the front-door rule on purpose: an extender class that imports the live scheduler, so
 * {@code FrontDoorsTest} can show its rule fails, naming both. Test sources only.
 */
public final class ImportsTheLiveScheduler {
  private ImportsTheLiveScheduler() {}

  /** The live scheduler's front door, reached from the extender's package. */
  public static Class<?> liveScheduler() {
    return LiveSchedulerWiring.class;
  }
}
