package io.gantry.deviceagent.enforcement;

import io.gantry.proto.nodeagent.v1.NodeAgentProto.EnforcementEvent;

/**
 * Hears what the agent enforced on a pod: a limit applied, exceeded, or a pod stopped for it. The
 * node-agent API's event; called on the enforcing thread, so it must return at once.
 */
@FunctionalInterface
public interface EnforcementListener {
  void enforced(EnforcementEvent event);
}
