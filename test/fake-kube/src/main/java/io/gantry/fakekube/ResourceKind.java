package io.gantry.fakekube;

import static java.util.Objects.requireNonNull;

/**
 * One resource the fake serves: its group, version, plural (the URL segment), kind, scope and how
 * its {@code status} is written.
 *
 * @param group API group, empty for core ({@code /api/v1})
 * @param custom true for custom resources (CRDs): no strategic merge patch, resourceVersion
 *     required on update
 */
public record ResourceKind(
    String group,
    String version,
    String plural,
    String kind,
    boolean namespaced,
    StatusPolicy statusPolicy,
    boolean custom) {

  /** How a resource's {@code status} is written. */
  public enum StatusPolicy {
    /** No status subresource: create, update and patch write status like any other field. */
    NONE,
    /**
     * {@code /status} subresource: create drops status, the main resource's update and patch keep
     * the stored status, and only {@code /status} writes it. The kind tracks {@code
     * metadata.generation}.
     */
    SUBRESOURCE,
    /** As {@link #SUBRESOURCE}, but create keeps the status sent (nodes, namespaces). */
    SUBRESOURCE_KEPT_ON_CREATE
  }

  public ResourceKind {
    requireNonNull(group, "group is null");
    requireNonNull(version, "version is null");
    requireNonNull(plural, "plural is null");
    requireNonNull(kind, "kind is null");
    requireNonNull(statusPolicy, "statusPolicy is null");
    if (version.isEmpty() || plural.isEmpty() || kind.isEmpty()) {
      throw new IllegalArgumentException("version, plural and kind must not be empty");
    }
  }

  /** {@code v1} or {@code group/version}. */
  public String apiVersion() {
    return group.isEmpty() ? version : group + "/" + version;
  }

  public String listKind() {
    return kind + "List";
  }

  public String singular() {
    return kind.toLowerCase(java.util.Locale.ROOT);
  }

  /** {@code pods}, or {@code queues.scheduling.run.ai}: how error messages name the resource. */
  public String qualifiedResource() {
    return group.isEmpty() ? plural : plural + "." + group;
  }

  public boolean hasStatusSubresource() {
    return statusPolicy != StatusPolicy.NONE;
  }

  public boolean tracksGeneration() {
    return statusPolicy == StatusPolicy.SUBRESOURCE;
  }

  /** Registry key: {@code group/version/plural}. */
  String key() {
    return group + "/" + version + "/" + plural;
  }

  /** {@code /api/v1} or {@code /apis/group/version}. */
  public String groupVersionPath() {
    return group.isEmpty() ? "/api/" + version : "/apis/" + group + "/" + version;
  }

  /** The collection URL path, in a namespace when the kind is namespaced and one is given. */
  public String collectionPath(String namespace) {
    if (namespaced && !namespace.isEmpty()) {
      return groupVersionPath() + "/namespaces/" + namespace + "/" + plural;
    }
    return groupVersionPath() + "/" + plural;
  }

  ResourceKind withKind(String newKind) {
    return new ResourceKind(group, version, plural, newKind, namespaced, statusPolicy, custom);
  }
}
