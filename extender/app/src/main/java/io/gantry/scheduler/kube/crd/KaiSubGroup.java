package io.gantry.scheduler.kube.crd;

/** One entry of a PodGroup's {@code spec.subGroups}. */
public record KaiSubGroup(
    String name,
    String parent,
    Integer minMember,
    Integer minSubGroup,
    KaiTopologyConstraint topologyConstraint) {}
