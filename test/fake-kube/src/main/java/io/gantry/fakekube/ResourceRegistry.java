package io.gantry.fakekube;

import com.google.common.collect.ImmutableList;
import java.util.Locale;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The kinds the server knows. Built-in kinds come from {@link ResourceKinds}; any other {@code
 * group/version/plural} is accepted as a custom resource: namespaced once a request path puts it in
 * a namespace (cluster-scoped until then), its kind taken from the first object sent (until then
 * guessed from the plural). Thread-safe.
 */
public final class ResourceRegistry {
  private final TreeMap<String, ResourceKind> byKey = new TreeMap<>();
  private final TreeMap<String, ResourceKind> learned = new TreeMap<>();
  private final TreeSet<String> withheld = new TreeSet<>();

  ResourceRegistry() {
    ResourceKinds.ALL.forEach(this::register);
  }

  /** Declares a kind (a CRD a test installs), replacing any learned guess for the same path. */
  public synchronized void register(ResourceKind kind) {
    byKey.put(kind.key(), kind);
    learned.remove(kind.key());
    withheld.remove(kind.key());
  }

  /**
   * Stops serving {@code group/version/plural}, as an older API server or one without a CRD: its
   * paths answer 404 and discovery leaves it out (the group too, once it serves nothing else),
   * until it is registered again.
   */
  public synchronized void withhold(String group, String version, String plural) {
    String key = group + "/" + version + "/" + plural;
    withheld.add(key);
    byKey.remove(key);
    learned.remove(key);
  }

  /**
   * The kind for a request path; unknown kinds are learned as custom resources; null for a withheld
   * one.
   */
  synchronized ResourceKind resolve(
      String group, String version, String plural, boolean namespacedPath) {
    String key = group + "/" + version + "/" + plural;
    if (withheld.contains(key)) {
      return null;
    }
    ResourceKind known = byKey.get(key);
    if (known != null && learned.containsKey(key) && namespacedPath && !known.namespaced()) {
      known = ResourceKinds.crd(group, version, plural, known.kind(), true);
      byKey.put(key, known);
      learned.put(key, known);
    }
    if (known != null) {
      return known;
    }
    ResourceKind guessed =
        ResourceKinds.crd(group, version, plural, guessKind(plural), namespacedPath);
    byKey.put(key, guessed);
    learned.put(key, guessed);
    return guessed;
  }

  /** Records the kind name of a learned custom resource from the first object sent. */
  synchronized ResourceKind learnKindName(ResourceKind kind, String kindName) {
    if (kindName.isEmpty() || !learned.containsKey(kind.key()) || kind.kind().equals(kindName)) {
      return byKey.getOrDefault(kind.key(), kind);
    }
    ResourceKind renamed = kind.withKind(kindName);
    byKey.put(kind.key(), renamed);
    learned.put(kind.key(), renamed);
    return renamed;
  }

  /** The registered kind with this apiVersion and kind, if any. */
  public synchronized Optional<ResourceKind> byApiVersionAndKind(String apiVersion, String kind) {
    return byKey.values().stream()
        .filter(k -> k.apiVersion().equals(apiVersion) && k.kind().equals(kind))
        .findFirst();
  }

  public synchronized Optional<ResourceKind> byGroupVersionPlural(
      String group, String version, String plural) {
    return Optional.ofNullable(byKey.get(group + "/" + version + "/" + plural));
  }

  /** Every kind known now, ordered by group, version and plural. */
  public synchronized ImmutableList<ResourceKind> all() {
    return ImmutableList.copyOf(byKey.values());
  }

  static String guessKind(String plural) {
    String singular;
    if (plural.endsWith("ies")) {
      singular = plural.substring(0, plural.length() - 3) + "y";
    } else if (plural.endsWith("sses") || plural.endsWith("xes")) {
      singular = plural.substring(0, plural.length() - 2);
    } else if (plural.endsWith("s")) {
      singular = plural.substring(0, plural.length() - 1);
    } else {
      singular = plural;
    }
    return singular.substring(0, 1).toUpperCase(Locale.ROOT) + singular.substring(1);
  }
}
