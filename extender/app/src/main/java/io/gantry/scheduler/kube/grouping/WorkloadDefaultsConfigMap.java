package io.gantry.scheduler.kube.grouping;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.common.collect.ImmutableMap;
import io.gantry.kubemodel.kai.grouping.WorkloadTypeDefaults;
import io.gantry.kubemodel.kai.grouping.WorkloadTypeDefaults.TypeDefault;
import io.gantry.scheduler.kube.informers.OwnerCache;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * KAI's optional ConfigMap of default priority classes and preemptibility per workload type
 * (kai-reference §3.3; the podgrouper's {@code --default-priorities-configmap-name} and {@code
 * -namespace}): its key {@value #TYPES} holds a JSON list of {@code {"typeName": "Kind.group",
 * "priorityName": …, "preemptibility": …}}. Read through the owner cache, so it is watched like any
 * owner. A ConfigMap that is missing or does not parse gives no defaults, as in KAI, with a warning
 * in the log.
 */
public final class WorkloadDefaultsConfigMap {
  static final String TYPES = "types";

  private static final Logger LOG = LoggerFactory.getLogger(WorkloadDefaultsConfigMap.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final OwnerCache cache;
  private final Optional<String> namespaceAndName;
  private volatile String lastProblem = "";

  /**
   * @param namespaceAndName {@code namespace/name} of the ConfigMap; empty for none
   */
  public WorkloadDefaultsConfigMap(OwnerCache cache, Optional<String> namespaceAndName) {
    this.cache = requireNonNull(cache, "cache is null");
    this.namespaceAndName = requireNonNull(namespaceAndName, "namespaceAndName is null");
  }

  /** The defaults now; empty while the ConfigMap's cache has not listed yet. */
  Optional<WorkloadTypeDefaults> current() {
    if (namespaceAndName.isEmpty()) {
      return Optional.of(WorkloadTypeDefaults.NONE);
    }
    String[] parts = namespaceAndName.get().split("/", 2);
    OwnerCache.Lookup lookup = cache.get("v1", "ConfigMap", parts[0], parts[1]);
    if (lookup instanceof OwnerCache.Lookup.Waiting) {
      return Optional.empty();
    }
    if (lookup instanceof OwnerCache.Lookup.Unreadable u) {
      warnOnce("default priorities ConfigMap unreadable (" + u.reason() + ")");
      return Optional.of(WorkloadTypeDefaults.NONE);
    }
    JsonNode types = ((OwnerCache.Lookup.Found) lookup).object().path("data").path(TYPES);
    try {
      return Optional.of(parse(types.asText("")));
    } catch (IllegalArgumentException e) {
      warnOnce("ConfigMap " + namespaceAndName.get() + " data." + TYPES + ": " + e.getMessage());
      return Optional.of(WorkloadTypeDefaults.NONE);
    }
  }

  /**
   * The defaults a {@value #TYPES} value lists.
   *
   * @throws IllegalArgumentException saying what is wrong with it
   */
  static WorkloadTypeDefaults parse(String types) {
    JsonNode list;
    try {
      list = JSON.readTree(types);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage(), e);
    }
    if (list == null || !list.isArray()) {
      throw new IllegalArgumentException("expected a JSON list of {typeName, priorityName}");
    }
    ImmutableMap.Builder<String, TypeDefault> byType = ImmutableMap.builder();
    for (JsonNode entry : list) {
      String typeName = entry.path("typeName").asText("");
      if (typeName.isEmpty()) {
        throw new IllegalArgumentException("an entry has no typeName: " + entry);
      }
      byType.put(
          typeName,
          new TypeDefault(text(entry.path("priorityName")), text(entry.path("preemptibility"))));
    }
    return new WorkloadTypeDefaults(byType.buildKeepingLast());
  }

  private static Optional<String> text(JsonNode node) {
    return node.isTextual() && !node.asText().isEmpty()
        ? Optional.of(node.asText())
        : Optional.empty();
  }

  private void warnOnce(String problem) {
    if (!problem.equals(lastProblem)) {
      lastProblem = problem;
      LOG.warn("{}; grouping without per-type defaults", problem);
    }
  }
}
