package io.gantry.scheduler.kube.write;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gantry.scheduler.kube.crd.KaiResourcesStatus;
import io.gantry.scheduler.kube.crd.KaiSchedulingCondition;
import io.gantry.scheduler.kube.crd.KaiUnschedulableReason;
import io.gantry.scheduler.kube.write.StatusPlanner.PodGroupStatus;
import io.gantry.scheduler.kube.write.StatusPlanner.QueueStatus;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/** The JSON merge patches {@link StatusWriter} sends, as text, fields in KAI's order. */
final class StatusPatches {
  private static final ObjectMapper JSON = new ObjectMapper();

  private StatusPatches() {}

  /**
   * A PodGroup's status: the scheduling conditions only where {@code transitionId} is present (they
   * change), stamped {@code now}, then {@code resourcesStatus}. The writer passes the time it
   * builds the patch, just before sending it, not when a cycle planned it: a rate-limited backlog
   * can hold a write for minutes, and the condition then says when the PodGroup's status changed.
   */
  static String podGroupStatus(
      PodGroupStatus s, Optional<String> transitionId, KaiResourcesStatus resources, Instant now) {
    ObjectNode patch = JSON.createObjectNode();
    ObjectNode status = patch.putObject("status");
    if (transitionId.isPresent()) {
      ArrayNode list = status.putArray("schedulingConditions");
      for (KaiSchedulingCondition c : s.conditions().orElseThrow()) {
        list.add(condition(c, transitionId.get(), now.toString()));
      }
    }
    status.set("resourcesStatus", JSON.valueToTree(resources));
    return patch.toString();
  }

  private static ObjectNode condition(
      KaiSchedulingCondition c, String transitionId, String transitionTime) {
    ObjectNode o = JSON.createObjectNode();
    o.put("type", c.type());
    o.put("nodePool", c.nodePool());
    o.put("reason", c.reason());
    o.put("message", c.message());
    ArrayNode reasons = o.putArray("reasons");
    for (KaiUnschedulableReason r : c.reasons()) {
      reasons.addObject().put("reason", r.reason()).put("message", r.message());
    }
    o.put("status", c.status());
    o.put("transitionID", transitionId);
    o.put("lastTransitionTime", transitionTime);
    return o;
  }

  /** Sets the annotations, in key order; an empty value removes one. */
  static String annotations(Map<String, Optional<String>> changes) {
    ObjectNode annotations = JSON.createObjectNode();
    changes.forEach(
        (key, value) -> {
          if (value.isPresent()) {
            annotations.put(key, value.get());
          } else {
            annotations.putNull(key);
          }
        });
    ObjectNode patch = JSON.createObjectNode();
    patch.putObject("metadata").set("annotations", annotations);
    return patch.toString();
  }

  /** A Queue's status: what it holds, the non-preemptible part of that, and what it asks for. */
  static String queueStatus(QueueStatus s) {
    ObjectNode patch = JSON.createObjectNode();
    ObjectNode status = patch.putObject("status");
    status.set("allocated", JSON.valueToTree(s.allocated()));
    status.set("allocatedNonPreemptible", JSON.valueToTree(s.allocatedNonPreemptible()));
    status.set("requested", JSON.valueToTree(s.requested()));
    return patch.toString();
  }
}
