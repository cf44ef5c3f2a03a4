package io.gantry.scheduler.plugins.predicates;

import static java.util.Objects.requireNonNull;

/** One topology domain: the nodes whose label {@code key} has value {@code value}. */
record TopologyDomain(String key, String value) {
  TopologyDomain {
    requireNonNull(key, "key is null");
    requireNonNull(value, "value is null");
  }
}
