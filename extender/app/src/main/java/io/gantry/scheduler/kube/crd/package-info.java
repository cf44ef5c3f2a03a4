/**
 * KAI's custom resources as client-java model classes: {@code scheduling.run.ai/v2} Queue, {@code
 * scheduling.run.ai/v2alpha2} PodGroup and {@code kai.scheduler/v1alpha1} Topology. Each kind has
 * its own class (client-java's {@code SharedInformerFactory} keeps one informer per class), read
 * and written with the relaxed Gson of {@link io.gantry.scheduler.kube.KubeClients}: fields this
 * build does not know are ignored, absent ones are {@code null}. Field names are KAI's JSON keys.
 */
package io.gantry.scheduler.kube.crd;
