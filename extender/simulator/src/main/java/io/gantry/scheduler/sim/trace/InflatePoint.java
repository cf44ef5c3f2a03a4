package io.gantry.scheduler.sim.trace;

import java.util.OptionalDouble;

/**
 * The cluster when the arrived GPU demand had reached {@code arrivedPercent} of capacity: the share
 * of GPU capacity left unallocated, and where measured, the fragmentation rate (share of the free
 * GPU the trace's tasks could not use) and the GPU stranded by CPU or memory (share of capacity).
 */
public record InflatePoint(
    int arrivedPercent,
    double unallocatedPercent,
    OptionalDouble fragmentationPercent,
    OptionalDouble cpuBoundPercent) {}
