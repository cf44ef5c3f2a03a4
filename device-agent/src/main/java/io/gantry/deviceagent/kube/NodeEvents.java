package io.gantry.deviceagent.kube;

import static java.util.Objects.requireNonNull;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Warning events on this node's Node object, stored in the {@code default} namespace as the
 * kubelet's node events are ({@code kubectl describe node} shows them).
 */
public final class NodeEvents {
  private static final Logger log = LoggerFactory.getLogger(NodeEvents.class);

  /** Where node events live. */
  public static final String NAMESPACE = "default";

  private final WarningEvents events;
  private final String nodeName;

  public NodeEvents(ApiClient client, String nodeName, Clock clock) {
    this.nodeName = requireNonNull(nodeName, "nodeName is null");
    this.events = new WarningEvents(client, nodeName, clock);
  }

  /** Records a Warning event {@code reason} with {@code message} on the node. */
  public void warn(String reason, String message) throws ApiException {
    // the kubelet's node events carry the node name as uid
    events.record(
        new V1ObjectReference().apiVersion("v1").kind("Node").name(nodeName).uid(nodeName),
        NAMESPACE,
        reason,
        message);
    log.warn("{} node {}: {}", reason, nodeName, message);
  }
}
