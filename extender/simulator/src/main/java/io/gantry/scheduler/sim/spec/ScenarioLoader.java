package io.gantry.scheduler.sim.spec;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Loads scenario files (YAML, or JSON, which is YAML) into validated {@link ScenarioSpec}s. Every
 * problem is reported as a {@link ScenarioException} naming the file, the line and the field.
 */
public final class ScenarioLoader {
  private ScenarioLoader() {}

  /** Loads {@code file}; errors name it as given. */
  public static ScenarioSpec load(Path file) throws ScenarioException {
    String text;
    try {
      text = Files.readString(file, UTF_8);
    } catch (IOException e) {
      throw new ScenarioException(file.toString(), "cannot read: " + e, e);
    }
    return parse(file.toString(), text);
  }

  /** Parses {@code text}; {@code sourceName} is what errors call the file. */
  public static ScenarioSpec parse(String sourceName, String text) throws ScenarioException {
    return ScenarioBinder.bind(sourceName, YamlTreeReader.read(sourceName, text));
  }
}
