package io.gantry.scheduler.plugins.topology;

import io.gantry.scheduler.framework.TaskState;
import io.gantry.scheduler.model.ResourceKind;
import io.gantry.scheduler.model.ResourceVector;
import io.gantry.scheduler.model.Resources;
import java.util.List;

/**
 * What a (sub)group's pods of this pass ask of a domain: their summed request, the largest request
 * of one pod per resource, how many pods, and whether all pods ask the same (only then does a
 * domain's count of allocatable pods decide, kai-reference §9 (c)). GPUs are whole devices: a
 * shared-GPU request is left to the placement itself.
 */
record GroupRequest(ResourceVector total, ResourceVector maxPerPod, int pods, boolean homogeneous) {

  static GroupRequest of(List<TaskState> tasks) {
    ResourceVector total = ResourceVector.ZERO;
    ResourceVector max = ResourceVector.ZERO;
    boolean homogeneous = true;
    Resources first = tasks.isEmpty() ? Resources.ZERO : tasks.get(0).info().request();
    for (TaskState t : tasks) {
      Resources request = t.info().request();
      ResourceVector v = ResourceVector.of(request);
      total = total.plus(v);
      for (ResourceKind kind : ResourceKind.values()) {
        max = max.with(kind, Math.max(max.get(kind), v.get(kind)));
      }
      homogeneous &= request.equals(first) && !t.info().isShared();
    }
    return new GroupRequest(total, max, tasks.size(), homogeneous);
  }
}
