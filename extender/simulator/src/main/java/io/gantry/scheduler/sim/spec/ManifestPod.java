package io.gantry.scheduler.sim.spec;

import static java.util.Objects.requireNonNull;

import io.gantry.kubemodel.kai.grouping.GroupingInput;

/** A pod a workload's controllers create at submission, and what KAI's podgrouper reads for it. */
record ManifestPod(GroupingInput input, ManifestPodTemplate template) {
  ManifestPod {
    requireNonNull(input, "input is null");
    requireNonNull(template, "template is null");
  }
}
