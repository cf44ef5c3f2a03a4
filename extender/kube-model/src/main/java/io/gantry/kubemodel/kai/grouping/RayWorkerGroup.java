package io.gantry.kubemodel.kai.grouping;

import static java.util.Objects.requireNonNull;

import java.util.Optional;
import java.util.OptionalInt;

/** One entry of a Ray cluster's {@code spec.workerGroupSpecs}. */
public record RayWorkerGroup(
    Optional<String> groupName,
    OptionalInt replicas,
    OptionalInt minReplicas,
    OptionalInt numOfHosts,
    boolean suspended,
    PodTemplateMeta template) {
  public RayWorkerGroup {
    requireNonNull(groupName, "groupName is null");
    requireNonNull(replicas, "replicas is null");
    requireNonNull(minReplicas, "minReplicas is null");
    requireNonNull(numOfHosts, "numOfHosts is null");
    requireNonNull(template, "template is null");
  }
}
