package io.gantry.scheduler.kube.write;

import static java.util.Objects.requireNonNull;

import io.gantry.scheduler.kube.snapshot.PodFacts;

/** The object an Event is about ({@code involvedObject}); namespace empty for cluster objects. */
public record ObjectRef(String apiVersion, String kind, String namespace, String name, String uid) {
  public ObjectRef {
    requireNonNull(apiVersion, "apiVersion is null");
    requireNonNull(kind, "kind is null");
    requireNonNull(namespace, "namespace is null");
    requireNonNull(name, "name is null");
    requireNonNull(uid, "uid is null");
  }

  public static ObjectRef pod(PodFacts p) {
    return new ObjectRef("v1", "Pod", p.namespace(), p.name(), p.uid());
  }

  public static ObjectRef podGroup(io.gantry.scheduler.kube.crd.KaiPodGroup pg) {
    return new ObjectRef(
        io.gantry.scheduler.kube.crd.KaiPodGroup.GROUP
            + "/"
            + io.gantry.scheduler.kube.crd.KaiPodGroup.VERSION,
        io.gantry.scheduler.kube.crd.KaiPodGroup.KIND,
        pg.getMetadata().getNamespace(),
        pg.getMetadata().getName(),
        pg.getMetadata().getUid() == null ? "" : pg.getMetadata().getUid());
  }
}
