package io.gantry.extender.wire;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableMap;

/**
 * The answer to {@code filter} ({@code ExtenderFilterResult}): the nodes that pass, and for each
 * node that fails why, either {@code failedNodes} (kube-scheduler's preemption may still help
 * there) or {@code failedAndUnresolvableNodes} (it cannot). Nodes keep the request's order.
 */
public record FilterResult(
    NodeNames passing,
    ImmutableMap<String, String> failedNodes,
    ImmutableMap<String, String> failedAndUnresolvableNodes,
    String error) {
  public FilterResult {
    requireNonNull(passing, "passing is null");
    requireNonNull(failedNodes, "failedNodes is null");
    requireNonNull(failedAndUnresolvableNodes, "failedAndUnresolvableNodes is null");
    requireNonNull(error, "error is null");
  }
}
