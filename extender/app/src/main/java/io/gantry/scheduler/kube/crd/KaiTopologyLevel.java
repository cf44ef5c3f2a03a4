package io.gantry.scheduler.kube.crd;

/** One level of a Topology: the node label that names its domains, and an optional alias. */
public record KaiTopologyLevel(String nodeLabel, String alias) {}
