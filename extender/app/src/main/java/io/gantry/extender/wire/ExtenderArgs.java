package io.gantry.extender.wire;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.common.collect.ImmutableList;
import java.util.Optional;

/**
 * The request of {@code filter} and {@code prioritize} ({@code ExtenderArgs}): the pod (the whole
 * Pod object kube-scheduler sends, {@link RequestPod}) and the candidate nodes, as names ({@code
 * NodeNames}, {@code nodeCacheCapable: true}) or as the node objects ({@code Nodes}, a NodeList).
 * {@code nodeNames} always lists the candidates in request order; {@code nodeItems} keeps the
 * received node objects, to be returned unchanged.
 */
public record ExtenderArgs(
    RequestPod pod, NodeNames nodeNames, Optional<ImmutableList<JsonNode>> nodeItems) {
  public ExtenderArgs {
    requireNonNull(pod, "pod is null");
    requireNonNull(nodeNames, "nodeNames is null");
    requireNonNull(nodeItems, "nodeItems is null");
  }

  /** A request whose pod is named only (no labels, no owners, kube-scheduler's own pod). */
  public ExtenderArgs(
      PodRef pod, NodeNames nodeNames, Optional<ImmutableList<JsonNode>> nodeItems) {
    this(RequestPod.named(pod), nodeNames, nodeItems);
  }

  /** Whether the caller sent names only ({@code nodeCacheCapable: true}). */
  public boolean namesOnly() {
    return nodeItems.isEmpty();
  }
}
