/**
 * The Kubernetes API calls the scheduler makes, as RBAC rules ({@link
 * io.gantry.scheduler.kube.access.SchedulerApiAccess}), which the chart's tests hold the chart's
 * ClusterRole to.
 */
package io.gantry.scheduler.kube.access;
