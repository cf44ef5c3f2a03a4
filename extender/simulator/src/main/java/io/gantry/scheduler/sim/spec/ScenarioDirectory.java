package io.gantry.scheduler.sim.spec;

import com.google.common.collect.ImmutableList;
import io.gantry.kubemodel.read.IoProblem;
import io.gantry.kubemodel.read.ScenarioException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** The scenario files of a directory: its {@code *.yaml}, {@code *.yml} and {@code *.json}. */
public final class ScenarioDirectory {
  private static final Pattern SCENARIO_NAME = Pattern.compile(".*\\.(ya?ml|json)");

  private ScenarioDirectory() {}

  /**
   * The scenario files directly in {@code dir}, in name order.
   *
   * @throws ScenarioException naming {@code dir} when it cannot be listed or holds no scenario file
   */
  public static List<Path> scenarioFiles(Path dir) throws ScenarioException {
    return scenarioFiles(dir, Files::list);
  }

  /** How a directory's entries are read; tests supply failures no user can cause as root. */
  interface Lister {
    Stream<Path> list(Path dir) throws IOException;
  }

  static List<Path> scenarioFiles(Path dir, Lister lister) throws ScenarioException {
    List<Path> files;
    try (Stream<Path> entries = lister.list(dir)) {
      files =
          entries
              .filter(f -> SCENARIO_NAME.matcher(f.getFileName().toString()).matches())
              .sorted()
              .collect(ImmutableList.toImmutableList());
    } catch (IOException e) {
      throw cannotRead(dir, e);
    } catch (UncheckedIOException e) {
      throw cannotRead(dir, e.getCause());
    }
    if (files.isEmpty()) {
      throw new ScenarioException(
          dir.toString(), 0, "", "no scenario files (*.yaml, *.yml, *.json) in this directory");
    }
    return files;
  }

  private static ScenarioException cannotRead(Path dir, IOException e) {
    return new ScenarioException(
        dir.toString(), "cannot read directory: " + IoProblem.describe(e), e);
  }
}
