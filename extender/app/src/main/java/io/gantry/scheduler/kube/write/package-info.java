/**
 * Everything the live scheduler writes to the API server: binds ({@link
 * io.gantry.scheduler.kube.write.Binder}, with the claim allocations and GPU annotation they
 * carry), evictions ({@link io.gantry.scheduler.kube.write.Evictor}), claim releases, pod, PodGroup
 * and Queue status ({@link io.gantry.scheduler.kube.write.StatusWriter}) and Events ({@link
 * io.gantry.scheduler.kube.write.EventRecorder}), all through {@link
 * io.gantry.scheduler.kube.write.KubeWriter}.
 */
package io.gantry.scheduler.kube.write;
