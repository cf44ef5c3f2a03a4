package io.gantry.scheduler.framework;

/** Orders jobs within a queue; negative puts {@code a} first. First non-zero plugin wins. */
public interface JobOrder extends Plugin {
  int compareJobs(JobState a, JobState b);
}
