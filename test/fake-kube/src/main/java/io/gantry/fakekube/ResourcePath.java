package io.gantry.fakekube;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;

/**
 * A resource URL, parsed: {@code /api/v1[/namespaces/<ns>]/<plural>[/<name>[/<subresource>]]} or
 * the same under {@code /apis/<group>/<version>}. {@code /api/v1/namespaces/<name>[/status]} names
 * a namespace itself.
 */
record ResourcePath(
    ResourceKind kind, String namespace, Optional<String> name, Optional<String> subresource) {

  ResourcePath {
    requireNonNull(kind, "kind is null");
    requireNonNull(namespace, "namespace is null");
    requireNonNull(name, "name is null");
    requireNonNull(subresource, "subresource is null");
  }

  /**
   * Parses the segments after the group and version; empty when they name no resource (404). A kind
   * known to be cluster-scoped under a namespace, or a namespaced kind's single object without one,
   * is 404 as on the real server.
   */
  static Optional<ResourcePath> parse(
      String group, String version, List<String> rest, ResourceRegistry registry) {
    if (rest.isEmpty()) {
      return Optional.empty();
    }
    String namespace = "";
    List<String> tail = rest;
    boolean namespaceItself =
        rest.size() == 2
            || (rest.size() == 3 && List.of("status", "finalize").contains(rest.get(2)));
    if (rest.get(0).equals("namespaces") && rest.size() >= 3 && !namespaceItself) {
      namespace = rest.get(1);
      tail = rest.subList(2, rest.size());
    }
    if (tail.size() > 3) {
      return Optional.empty();
    }
    boolean namespacedPath = !namespace.isEmpty();
    ResourceKind kind = registry.resolve(group, version, tail.get(0), namespacedPath);
    if (kind == null) {
      return Optional.empty();
    }
    Optional<String> name = tail.size() > 1 ? Optional.of(tail.get(1)) : Optional.empty();
    if (namespacedPath && !kind.namespaced()) {
      return Optional.empty();
    }
    if (!namespacedPath && kind.namespaced() && name.isPresent()) {
      return Optional.empty();
    }
    Optional<String> sub = tail.size() > 2 ? Optional.of(tail.get(2)) : Optional.empty();
    return Optional.of(new ResourcePath(kind, namespace, name, sub));
  }
}
