package io.gantry.scheduler.sim.spec;

import com.google.common.collect.ImmutableList;
import io.gantry.kubemodel.read.Field;
import io.gantry.kubemodel.read.ScenarioException;
import io.gantry.kubemodel.read.ScenarioFileReader;
import io.gantry.kubemodel.read.YamlTreeReader;
import java.nio.file.Path;
import java.util.List;

/**
 * Loads scenario files (YAML, or JSON, which is YAML) into validated {@link ScenarioSpec}s. Every
 * problem is reported as a {@link ScenarioException} naming the file, the line and the field.
 */
public final class ScenarioLoader {
  private ScenarioLoader() {}

  /** Loads {@code file} within the default limits; errors name it as given. */
  public static ScenarioSpec load(Path file) throws ScenarioException {
    return load(file, ScenarioLimits.DEFAULT);
  }

  /**
   * Loads {@code file}, a regular file in UTF-8 of at most 1 GiB, whose nodes and pods stay within
   * {@code limits}; errors name it as given.
   */
  public static ScenarioSpec load(Path file, ScenarioLimits limits) throws ScenarioException {
    return parse(file.toString(), ScenarioFileReader.read(file), limits);
  }

  /** Parses {@code text} within the default limits; {@code sourceName} is what errors call it. */
  public static ScenarioSpec parse(String sourceName, String text) throws ScenarioException {
    return parse(sourceName, text, ScenarioLimits.DEFAULT);
  }

  /**
   * Parses {@code text}; {@code sourceName} is what errors call the file, and a name ending in
   * {@code .json} makes a syntax error say "invalid JSON".
   */
  public static ScenarioSpec parse(String sourceName, String text, ScenarioLimits limits)
      throws ScenarioException {
    return ScenarioBinder.bind(sourceName, YamlTreeReader.read(sourceName, text), limits);
  }

  /**
   * {@code spec} with the workloads of {@code json} (a JSON list of manifests) added after its
   * jobs, as if the file had listed them last under {@code workloads}: the pods of requests that
   * are not in the file ({@code gantry extender --scenario}). Errors name {@code sourceName}.
   */
  public static ScenarioSpec withWorkloads(ScenarioSpec spec, String sourceName, String json)
      throws ScenarioException {
    List<Field> items = Field.root(sourceName, YamlTreeReader.readJson(sourceName, json)).asList();
    Catalog catalog = new Catalog(spec.topologies(), spec.nodes(), spec.queues());
    return new ScenarioSpec(
        spec.sourceName(),
        spec.name(),
        spec.description(),
        spec.config(),
        spec.topologies(),
        spec.nodes(),
        spec.queues(),
        ImmutableList.<JobSpec>builder()
            .addAll(spec.jobs())
            .addAll(WorkloadBinder.bind(items, catalog, ScenarioLimits.DEFAULT, spec.jobs()))
            .build(),
        spec.expect(),
        spec.dra());
  }
}
