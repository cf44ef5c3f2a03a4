/**
 * One cycle's {@code ClusterSnapshot} from the informer caches: {@link
 * io.gantry.scheduler.kube.snapshot.SnapshotBuilder} and the readers it uses for each kind (pods as
 * {@link io.gantry.scheduler.kube.snapshot.PodFacts}, nodes, Queues, PodGroups, Topologies, GPU
 * inventories, DRA claims), with the objects behind it ({@link
 * io.gantry.scheduler.kube.snapshot.LiveSnapshot}) and why a pod or PodGroup was left out ({@link
 * io.gantry.scheduler.kube.snapshot.SnapshotReason}). Reads only.
 */
package io.gantry.scheduler.kube.snapshot;
