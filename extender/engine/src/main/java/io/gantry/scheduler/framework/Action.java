package io.gantry.scheduler.framework;

/** One step of a scheduling cycle; actions run in the configured order on one session. */
public interface Action {
  ActionType type();

  void execute(Session session);
}
