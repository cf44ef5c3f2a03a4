package io.gantry.kubemodel.kai.grouping;

import static java.util.Objects.requireNonNull;

import java.util.OptionalInt;

/**
 * One entry of a JobSet's {@code spec.replicatedJobs}: its name, {@code replicas}, the Job
 * template's {@code spec.parallelism}, and the Job template's metadata.
 */
public record ReplicatedJob(
    String name, OptionalInt replicas, OptionalInt parallelism, PodTemplateMeta jobTemplate) {
  public ReplicatedJob {
    requireNonNull(name, "name is null");
    requireNonNull(replicas, "replicas is null");
    requireNonNull(parallelism, "parallelism is null");
    requireNonNull(jobTemplate, "jobTemplate is null");
  }
}
