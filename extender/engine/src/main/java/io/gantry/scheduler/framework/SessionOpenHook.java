package io.gantry.scheduler.framework;

/** Called once per session, in plugin priority order, after every task is on its node. */
public interface SessionOpenHook extends Plugin {
  void onSessionOpen(Session session);
}
