package io.gantry.fakekube;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableSet;

/**
 * The object of a BOOKMARK watch event, shaped as the real server writes it: the kind's zero value
 * with only {@code metadata.resourceVersion} set. Go serializes the zero value's non-omitempty
 * fields too, so a pod bookmark carries {@code "spec":{"containers":null},"status":{}} and a
 * workload's carries the same inside {@code spec.template}. (A strict client model, such as
 * client-java 27's {@code V1Pod}, rejects {@code containers: null}.)
 */
final class Bookmarks {
  static final String INITIAL_EVENTS_END = "k8s.io/initial-events-end";
  private static final ImmutableSet<ResourceKind> WORKLOADS =
      ImmutableSet.of(
          ResourceKinds.JOBS,
          ResourceKinds.DEPLOYMENTS,
          ResourceKinds.REPLICA_SETS,
          ResourceKinds.STATEFUL_SETS,
          ResourceKinds.DAEMON_SETS);

  private Bookmarks() {}

  static ObjectNode object(ResourceKind kind, long resourceVersion, boolean initialEventsEnd) {
    ObjectNode object = Json.object();
    object.put("kind", kind.kind());
    object.put("apiVersion", kind.apiVersion());
    ObjectNode meta = object.putObject("metadata");
    meta.put("resourceVersion", Long.toString(resourceVersion));
    if (initialEventsEnd) {
      meta.putObject("annotations").put(INITIAL_EVENTS_END, "true");
    }
    if (kind.equals(ResourceKinds.PODS)) {
      object.putObject("spec").putNull("containers");
      object.putObject("status");
    } else if (WORKLOADS.contains(kind)) {
      ObjectNode template = object.putObject("spec").putObject("template");
      template.putObject("metadata");
      template.putObject("spec").putNull("containers");
      object.putObject("status");
    }
    return object;
  }
}
