/**
 * KAI's pod grouper in the live scheduler: {@link io.gantry.scheduler.kube.grouping.PodGrouper}
 * creates the PodGroup of each pending pod that names none, from its top owner ({@link
 * io.gantry.scheduler.kube.grouping.OwnerResolver}) and the workload defaults ConfigMap.
 */
package io.gantry.scheduler.kube.grouping;
