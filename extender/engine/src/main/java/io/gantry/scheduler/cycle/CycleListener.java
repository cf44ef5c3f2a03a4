package io.gantry.scheduler.cycle;

import io.gantry.scheduler.framework.ActionObserver;

/**
 * Hears where a {@link SchedulingCycle} is, so a caller can time its phases without the engine
 * reading a clock. Called on the thread running the cycle, in this order: {@link #sessionOpened}
 * once, then {@link #actionStarted} and {@link #actionFinished} around each configured action, with
 * {@link #jobTried} between them, then {@link #sessionClosed} once. A listener must not throw; what
 * it does takes from the cycle's time. As an {@link ActionObserver} it also hears what each action
 * tries.
 */
public interface CycleListener extends ActionObserver {
  /** Hears nothing. */
  CycleListener NONE = new CycleListener() {};

  /** The session is built from the snapshot and the plugins have opened. */
  default void sessionOpened() {}

  /** {@code action} (KAI's name, e.g. {@code allocate}) is about to run. */
  default void actionStarted(String action) {}

  /** {@code action} has run. */
  default void actionFinished(String action) {}

  /**
   * {@code action} takes job {@code jobId} from its queue order and is about to try it; today only
   * allocate tells. The sequence is the order allocate actually uses, a job pushed back for more
   * tasks heard again.
   */
  default void jobTried(String action, String jobId) {}

  /** The result is built and the session closed: the cycle returns. */
  default void sessionClosed() {}
}
