package io.gantry.scheduler.kube.crd;

import java.util.List;

/** A Topology's levels, outermost first. */
public record KaiTopologySpec(List<KaiTopologyLevel> levels) {}
