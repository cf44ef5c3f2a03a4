package io.gantry.extender;

import com.google.common.collect.ImmutableSet;

/** The extender protocol's verbs and the webhook's, as the last segment of the request path. */
final class Verb {
  static final ImmutableSet<String> NAMES =
      ImmutableSet.of("filter", "prioritize", "preempt", "bind", "admit");

  private Verb() {}
}
