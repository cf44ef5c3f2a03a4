package io.gantry.scheduler.kube.crd;

import java.util.List;

/** A PodGroup's spec (kai-reference §2.2); every field optional as written. */
public record KaiPodGroupSpec(
    Integer minMember,
    Integer minSubGroup,
    String queue,
    String priorityClassName,
    String preemptibility,
    KaiTopologyConstraint topologyConstraint,
    List<KaiSubGroup> subGroups,
    Boolean markUnschedulable,
    Integer schedulingBackoff,
    String preemptionDelay,
    String stalenessGracePeriod) {}
