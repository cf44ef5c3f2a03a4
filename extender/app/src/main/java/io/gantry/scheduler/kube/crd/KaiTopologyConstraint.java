package io.gantry.scheduler.kube.crd;

/** A PodGroup's or SubGroup's {@code topologyConstraint}. */
public record KaiTopologyConstraint(
    String topology, String requiredTopologyLevel, String preferredTopologyLevel) {}
