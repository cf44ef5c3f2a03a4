package io.gantry.scheduler.framework;

/**
 * Called once per session, in plugin priority order, after every task is on its node and before any
 * action runs: where a plugin computes what it needs for the cycle and publishes what others read
 * ({@link SessionView#state()}).
 */
public interface SessionOpenHook extends Plugin {
  void onSessionOpen(SessionView session);
}
