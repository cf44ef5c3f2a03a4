package io.gantry.extender.wire;

import static java.util.Objects.requireNonNull;

/** The pod a request is about, as kube-scheduler names it: namespace, name and UID. */
public record PodRef(String namespace, String name, String uid) {
  public PodRef {
    requireNonNull(namespace, "namespace is null");
    requireNonNull(name, "name is null");
    requireNonNull(uid, "uid is null");
  }

  /** {@code namespace/name}, the key Gantry's snapshots give a pod's task. */
  public String key() {
    return namespace + "/" + name;
  }
}
