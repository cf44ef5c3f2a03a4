package io.gantry.deviceagent.kube;

import static java.util.Objects.requireNonNull;

/** A pod by namespace, name and UID. */
public record PodRef(String namespace, String name, String uid) {
  public PodRef {
    requireNonNull(namespace, "namespace is null");
    requireNonNull(name, "name is null");
    requireNonNull(uid, "uid is null");
  }
}
