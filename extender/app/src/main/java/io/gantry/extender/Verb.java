package io.gantry.extender;

import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The extender protocol's verbs and the webhook's, each named on the wire by the last segment of
 * the request path (kube-scheduler appends it to the extender's {@code urlPrefix}).
 */
enum Verb {
  FILTER("filter"),
  PRIORITIZE("prioritize"),
  PREEMPT("preempt"),
  BIND("bind"),
  ADMIT("admit");

  /** Every verb's path segment, comma-separated, for the answer to an unknown one. */
  static final String LIST =
      Arrays.stream(values()).map(Verb::pathSegment).collect(Collectors.joining(", "));

  private final String pathSegment;

  Verb(String pathSegment) {
    this.pathSegment = pathSegment;
  }

  /** The verb's name in request paths and in the {@code verb} label of the metrics. */
  String pathSegment() {
    return pathSegment;
  }

  /** The verb a request path's last segment names; empty for any other segment. */
  static Optional<Verb> ofPathSegment(String segment) {
    for (Verb v : values()) {
      if (v.pathSegment.equals(segment)) {
        return Optional.of(v);
      }
    }
    return Optional.empty();
  }
}
