package io.gantry.scheduler.framework;

/** Orders tasks within a job; negative puts {@code a} first. First non-zero plugin wins. */
public interface TaskOrder extends Plugin {
  int compareTasks(TaskState a, TaskState b);
}
