/**
 * GPU sharing next to NVIDIA's device plugin, as KAI does it (kai-reference §1.7, §1.8, §7): the
 * binder's reservation pods, one per shared GPU, that hold the device through {@code
 * nvidia.com/gpu: 1} and publish its UUID; the fraction pods' environment ConfigMaps; the cleanup
 * of reservation pods nobody references and of fraction pods whose reservation went; and the
 * scaling pods that let a cluster autoscaler see pending fractions. Every decision here reads the
 * API server's state (the informer caches or a fresh list), never memory of earlier decisions, so a
 * restarted scheduler carries on where the last one stopped.
 */
package io.gantry.scheduler.kube.reserve;
