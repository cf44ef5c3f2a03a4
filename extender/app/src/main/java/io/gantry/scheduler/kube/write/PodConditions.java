package io.gantry.scheduler.kube.write;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;

/** Strategic merge patches of one pod condition (conditions merge by {@code type}). */
final class PodConditions {
  static final String POD_SCHEDULED = "PodScheduled";
  static final String DISRUPTION_TARGET = "DisruptionTarget";

  private static final ObjectMapper JSON = new ObjectMapper();

  private PodConditions() {}

  static String patch(String type, String status, String reason, String message, Instant now) {
    ObjectNode root = JSON.createObjectNode();
    root.putObject("status")
        .putArray("conditions")
        .addObject()
        .put("type", type)
        .put("status", status)
        .put("reason", reason)
        .put("message", message)
        .putNull("lastProbeTime")
        .put("lastTransitionTime", now.toString());
    return root.toString();
  }
}
