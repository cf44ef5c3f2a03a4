package io.gantry.scheduler.sim.spec;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.kubemodel.config.ConfigSpec;
import io.gantry.kubemodel.dra.DraSpec;
import io.gantry.scheduler.sim.expect.Expectations;
import java.util.List;

/** A loaded and validated scenario file; lists keep file order, which decides UIDs. */
public record ScenarioSpec(
    String sourceName,
    String name,
    String description,
    ConfigSpec config,
    List<TopologySpec> topologies,
    List<NodeSpec> nodes,
    List<QueueSpec> queues,
    List<JobSpec> jobs,
    Expectations expect,
    DraSpec dra) {
  public ScenarioSpec {
    requireNonNull(sourceName, "sourceName is null");
    requireNonNull(name, "name is null");
    requireNonNull(description, "description is null");
    requireNonNull(config, "config is null");
    topologies = ImmutableList.copyOf(requireNonNull(topologies, "topologies is null"));
    nodes = ImmutableList.copyOf(requireNonNull(nodes, "nodes is null"));
    queues = ImmutableList.copyOf(requireNonNull(queues, "queues is null"));
    jobs = ImmutableList.copyOf(requireNonNull(jobs, "jobs is null"));
    requireNonNull(expect, "expect is null");
    requireNonNull(dra, "dra is null");
  }

  /** A scenario without DRA objects. */
  public ScenarioSpec(
      String sourceName,
      String name,
      String description,
      ConfigSpec config,
      List<TopologySpec> topologies,
      List<NodeSpec> nodes,
      List<QueueSpec> queues,
      List<JobSpec> jobs,
      Expectations expect) {
    this(
        sourceName,
        name,
        description,
        config,
        topologies,
        nodes,
        queues,
        jobs,
        expect,
        DraSpec.NONE);
  }

  /** The same scenario running {@code actions} each cycle instead of its {@code config.actions}. */
  public ScenarioSpec withActions(List<String> actions) {
    return new ScenarioSpec(
        sourceName,
        name,
        description,
        config.withActions(actions),
        topologies,
        nodes,
        queues,
        jobs,
        expect,
        dra);
  }

  /** Whether the file has an {@code expect:} block with at least one expectation. */
  public boolean hasExpectations() {
    return !expect.equals(Expectations.NONE);
  }
}
