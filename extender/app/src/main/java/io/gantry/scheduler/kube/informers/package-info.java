/**
 * The live scheduler's view of the cluster: client-java informers over pods, nodes, priority
 * classes, KAI's Queues, PodGroups and Topologies ({@link
 * io.gantry.scheduler.kube.informers.ClusterInformers}), the DRA objects ({@link
 * io.gantry.scheduler.kube.informers.DraInformers}), the owners of pods ({@link
 * io.gantry.scheduler.kube.informers.OwnerCache}) and an index of pods by UID. Caches only: nothing
 * here writes.
 */
package io.gantry.scheduler.kube.informers;
