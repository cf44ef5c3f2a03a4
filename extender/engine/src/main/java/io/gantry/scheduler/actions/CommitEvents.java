package io.gantry.scheduler.actions;

import io.gantry.scheduler.api.result.BindDecision;
import io.gantry.scheduler.api.result.Decision;
import io.gantry.scheduler.api.result.EvictDecision;
import io.gantry.scheduler.api.result.PipelineDecision;
import io.gantry.scheduler.framework.Session;
import io.gantry.scheduler.framework.TaskState;
import java.util.List;

/**
 * The events a commit emits, in decision order (kai-reference §4.12, §11): {@code Scheduled} and
 * {@code Pipelined} on the pod, {@code Evict} on the victim's PodGroup with the eviction message.
 */
final class CommitEvents {
  private CommitEvents() {}

  static void record(Session session, List<Decision> decisions) {
    for (Decision d : decisions) {
      TaskState task = session.task(d.taskId());
      String pod = EvictionReasons.pod(task);
      switch (d.kind()) {
        case BIND -> {
          var bind = (BindDecision) d;
          session.recordEvent(
              pod,
              "Scheduled",
              "Successfully assigned pod "
                  + pod
                  + " to node "
                  + bind.nodeName()
                  + " at node-pool default");
        }
        case PIPELINE -> {
          var pipe = (PipelineDecision) d;
          session.recordEvent(
              pod,
              "Pipelined",
              "Pod "
                  + pod
                  + " is pipelined to node "
                  + pipe.nodeName()
                  + " and waits for resources being released");
        }
        case EVICT -> {
          var evict = (EvictDecision) d;
          session.recordEvent(task.job().id(), "Evict", evict.message());
        }
      }
    }
  }
}
