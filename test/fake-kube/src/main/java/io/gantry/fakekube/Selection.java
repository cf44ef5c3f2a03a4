package io.gantry.fakekube;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Which objects of one kind a list or watch sees: a namespace (empty for all), a label selector and
 * a field selector.
 */
public record Selection(
    ResourceKind kind, String namespace, LabelSelector labels, FieldSelector fields) {
  public Selection {
    requireNonNull(kind, "kind is null");
    requireNonNull(namespace, "namespace is null");
    requireNonNull(labels, "labels is null");
    requireNonNull(fields, "fields is null");
  }

  /** Every object of the kind, in a namespace or (empty) all of them. */
  public static Selection all(ResourceKind kind, String namespace) {
    return new Selection(kind, namespace, LabelSelector.EVERYTHING, FieldSelector.EVERYTHING);
  }

  public boolean matches(JsonNode object) {
    return (namespace.isEmpty() || namespace.equals(Json.namespace(object)))
        && labels.matches(object)
        && fields.matches(object);
  }
}
