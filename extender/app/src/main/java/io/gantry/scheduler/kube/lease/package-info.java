/**
 * Leader election over a {@code coordination.k8s.io} Lease: only the leader ({@link
 * io.gantry.scheduler.kube.lease.Leadership}) schedules and writes.
 */
package io.gantry.scheduler.kube.lease;
