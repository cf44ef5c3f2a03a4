package io.gantry.kubemodel.kai.grouping;

import static java.util.Objects.requireNonNull;

import java.util.OptionalInt;

/**
 * One replica type of a Kubeflow training job ({@code spec.<kind>ReplicaSpecs.<Type>}): its {@code
 * replicas}, when written, and its pod template's metadata.
 */
public record ReplicaSpec(OptionalInt replicas, PodTemplateMeta template) {
  public ReplicaSpec {
    requireNonNull(replicas, "replicas is null");
    requireNonNull(template, "template is null");
  }
}
