package io.gantry.scheduler.sim.spec;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import io.gantry.kubemodel.config.ConfigBinder;
import io.gantry.kubemodel.config.ConfigSpec;
import io.gantry.kubemodel.dra.DraBinder;
import io.gantry.kubemodel.dra.DraSpec;
import io.gantry.kubemodel.read.Field;
import io.gantry.kubemodel.read.LocatedNode;
import io.gantry.kubemodel.read.LocatedNode.MapNode;
import io.gantry.kubemodel.read.MapReader;
import io.gantry.kubemodel.read.ScenarioException;
import io.gantry.scheduler.sim.expect.Expectations;
import java.util.List;
import java.util.Optional;

/**
 * Binds the top level of a scenario. Sections are bound in dependency order (topologies, nodes and
 * queues before the jobs and workloads that name them, those before the expectations) so that each
 * reference is checked where it is written.
 */
final class ScenarioBinder {
  static final String API_VERSION = "gantry.io/v1alpha1";
  static final String KIND = "Scenario";

  private static final ImmutableSet<String> KEYS =
      ImmutableSet.of(
          "apiVersion",
          "kind",
          "metadata",
          "config",
          "topologies",
          "deviceClasses",
          "resourceSlices",
          "resourceClaims",
          "resourceClaimTemplates",
          "nodes",
          "queues",
          "jobs",
          "workloads",
          "expect");
  private static final ImmutableSet<String> METADATA_KEYS = ImmutableSet.of("name", "description");

  private ScenarioBinder() {}

  static ScenarioSpec bind(String sourceName, LocatedNode root, ScenarioLimits limits)
      throws ScenarioException {
    if (!(root instanceof MapNode)) {
      throw new ScenarioException(
          sourceName, 1, "", "expected a mapping at the top level, got " + Field.describe(root));
    }
    MapReader top = Field.root(sourceName, root).asMap(KEYS);
    requireConstant(top, "apiVersion", API_VERSION);
    requireConstant(top, "kind", KIND);
    MapReader metadata = top.required("metadata").asMap(METADATA_KEYS);
    String name = metadata.requiredString("name");
    String description = metadata.optString("description").orElse("").strip();
    ExpansionCheck.check(top, limits);

    Optional<Field> configField = top.optional("config");
    ConfigSpec config =
        configField.isPresent() ? ConfigBinder.bind(configField.get()) : ConfigSpec.EMPTY;
    List<TopologySpec> topologies = TopologyBinder.bind(top.list("topologies"));
    DraSpec dra = DraBinder.bind(top);
    List<NodeSpec> nodes = NodeBinder.bind(top.list("nodes"));
    List<QueueSpec> queues = QueueBinder.bind(sourceName, top.list("queues"));
    Catalog catalog = new Catalog(topologies, nodes, queues);
    List<JobSpec> ownJobs = JobBinder.bind(top.list("jobs"), catalog);
    List<JobSpec> jobs =
        ImmutableList.<JobSpec>builder()
            .addAll(ownJobs)
            .addAll(WorkloadBinder.bind(top.list("workloads"), catalog, limits, ownJobs))
            .build();
    Optional<Field> expectField = top.optional("expect");
    Expectations expect =
        expectField.isPresent()
            ? ExpectBinder.bind(expectField.get(), catalog, jobs)
            : Expectations.NONE;
    return new ScenarioSpec(
        sourceName, name, description, config, topologies, nodes, queues, jobs, expect, dra);
  }

  private static void requireConstant(MapReader top, String key, String expected)
      throws ScenarioException {
    Field field = top.required(key);
    String value = field.asString();
    if (!value.equals(expected)) {
      throw field.error("expected " + expected + ", got " + Field.quote(value));
    }
  }
}
