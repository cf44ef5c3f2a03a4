package io.gantry.fakekube;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;

/**
 * One change in the store, as etcd records it: the type ({@code ADDED}, {@code MODIFIED}, {@code
 * DELETED}), the kind, the resourceVersion of the change, the object after it (for DELETED, the
 * last state stamped with the deletion's resourceVersion) and, except for ADDED, the object before.
 * The nodes are the store's own, shared with every listener and open watch: read them, never change
 * them.
 */
public record StoreEvent(
    String type,
    ResourceKind kind,
    long resourceVersion,
    ObjectNode object,
    Optional<ObjectNode> previous) {
  public static final String ADDED = "ADDED";
  public static final String MODIFIED = "MODIFIED";
  public static final String DELETED = "DELETED";

  public StoreEvent {
    requireNonNull(type, "type is null");
    requireNonNull(kind, "kind is null");
    requireNonNull(object, "object is null");
    requireNonNull(previous, "previous is null");
  }
}
