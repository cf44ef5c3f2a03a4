package io.gantry.scheduler.plugins;

import io.gantry.scheduler.api.config.SearchStrategy;
import io.gantry.scheduler.framework.JobOrder;
import io.gantry.scheduler.framework.JobState;
import io.gantry.scheduler.framework.SessionOpenHook;
import io.gantry.scheduler.framework.SessionView;
import io.gantry.scheduler.model.PodSet;
import io.gantry.scheduler.model.TaskStatus;
import java.util.IdentityHashMap;

/**
 * Jobs with a PodSet below its minMember first, then jobs exactly at minMember, then jobs above it
 * (kai-reference §4.5 JobOrderFn 2), so gangs start before running jobs grow.
 */
public final class ElasticPlugin implements JobOrder, SessionOpenHook {
  public static final String NAME = "elastic";

  /** A job's rank as of one {@link JobState#version()}; looked up, never iterated. */
  private record Rank(long version, int rank) {}

  private final IdentityHashMap<JobState, Rank> ranks = new IdentityHashMap<>();
  private boolean cache;

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void onSessionOpen(SessionView session) {
    cache = session.strategy() == SearchStrategy.INDEXED;
  }

  @Override
  public int compareJobs(JobState a, JobState b) {
    return Integer.compare(cachedRank(a), cachedRank(b));
  }

  /** Asked on every heap comparison, so cached per job version (not by the baseline). */
  private int cachedRank(JobState job) {
    if (!cache) {
      return rank(job);
    }
    Rank cached = ranks.get(job);
    if (cached != null && cached.version() == job.version()) {
      return cached.rank();
    }
    int rank = rank(job);
    ranks.put(job, new Rank(job.version(), rank));
    return rank;
  }

  private static int rank(JobState job) {
    boolean allExact = true;
    for (PodSet p : job.podSets()) {
      long allocated = job.count(p, TaskStatus::isActiveAllocated);
      if (allocated < p.minMember()) {
        return 0;
      }
      if (allocated > p.minMember()) {
        allExact = false;
      }
    }
    return allExact ? 1 : 2;
  }
}
