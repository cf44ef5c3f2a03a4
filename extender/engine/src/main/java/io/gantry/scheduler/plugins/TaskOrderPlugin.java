package io.gantry.scheduler.plugins;

import io.gantry.scheduler.framework.TaskOrder;
import io.gantry.scheduler.framework.TaskState;
import java.util.OptionalInt;

/** Pods with the {@code kai.scheduler/task-priority} label first, higher value first. */
public final class TaskOrderPlugin implements TaskOrder {
  public static final String NAME = "taskorder";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public int compareTasks(TaskState a, TaskState b) {
    OptionalInt pa = a.info().taskPriority();
    OptionalInt pb = b.info().taskPriority();
    if (pa.isPresent() != pb.isPresent()) {
      return pa.isPresent() ? -1 : 1;
    }
    if (pa.isEmpty()) {
      return 0;
    }
    return Integer.compare(pb.getAsInt(), pa.getAsInt());
  }
}
