package io.gantry.kubemodel.kai.grouping;

import static java.util.Objects.requireNonNull;

/** The owner reference a PodGroup carries, so that it is garbage collected with its owner. */
public record PodGroupOwner(String apiVersion, String kind, String name, String uid) {
  public PodGroupOwner {
    requireNonNull(apiVersion, "apiVersion is null");
    requireNonNull(kind, "kind is null");
    requireNonNull(name, "name is null");
    requireNonNull(uid, "uid is null");
  }

  public static PodGroupOwner of(OwnerMeta owner) {
    return new PodGroupOwner(owner.apiVersion(), owner.kind(), owner.name(), owner.uid());
  }
}
