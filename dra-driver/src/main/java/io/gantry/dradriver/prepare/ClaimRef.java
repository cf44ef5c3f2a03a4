package io.gantry.dradriver.prepare;

import static java.util.Objects.requireNonNull;

/** A claim as the kubelet names it in prepare and unprepare calls. */
public record ClaimRef(String namespace, String uid, String name) {
  public ClaimRef {
    requireNonNull(namespace, "namespace is null");
    requireNonNull(uid, "uid is null");
    requireNonNull(name, "name is null");
  }

  /** {@code namespace/name}, how messages name the claim. */
  public String describe() {
    return namespace + "/" + name;
  }
}
