package io.gantry.scheduler.framework.fit;

/**
 * Why one node cannot take a task: a predicate, the resource fit, or a queue capacity check on that
 * node. A task no node takes reports these per node, aggregated in {@link NoNodeFits}.
 */
public sealed interface NodeFitReason extends FitReason
    permits NodeNotReady,
        NodeUnschedulable,
        TooManyPods,
        NodeSelectorMismatch,
        NodeAffinityMismatch,
        UntoleratedTaint,
        PodAffinityMismatch,
        InsufficientResource,
        InsufficientExtendedResource,
        GpuMemoryNotSynced,
        GpuMemoryTooSmall,
        NodeResourceTypeMismatch,
        SharedGpusUnavailable,
        AllocatableTooSmall,
        CapacityExceeded,
        ClaimUnallocatable {}
