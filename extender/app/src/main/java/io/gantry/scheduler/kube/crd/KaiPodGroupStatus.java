package io.gantry.scheduler.kube.crd;

import java.util.List;

/** The parts of a PodGroup's status the scheduler writes (kai-reference §2.2, §11). */
public record KaiPodGroupStatus(
    List<KaiSchedulingCondition> schedulingConditions, KaiResourcesStatus resourcesStatus) {}
