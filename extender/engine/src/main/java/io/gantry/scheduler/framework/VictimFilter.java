package io.gantry.scheduler.framework;

/**
 * Whether a running job may be a victim of a pending one in an eviction action (KAI's
 * ReclaimVictimFilter and PreemptVictimFilter). Every plugin must admit the victim.
 */
public interface VictimFilter extends Plugin {
  boolean admitsVictim(ActionType action, JobState preemptor, JobState victim);
}
