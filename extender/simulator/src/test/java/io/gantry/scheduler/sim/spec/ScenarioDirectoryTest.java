package io.gantry.scheduler.sim.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gantry.kubemodel.read.ScenarioException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A directory stands for its *.yaml, *.yml and *.json files, in name order. */
class ScenarioDirectoryTest {
  @TempDir Path dir;

  @Test
  void listsScenarioFilesInNameOrder() throws IOException, ScenarioException {
    for (String name : new String[] {"b.yml", "a.yaml", "c.json", "notes.txt", "d.yaml.bak"}) {
      Files.writeString(dir.resolve(name), "");
    }

    assertThat(ScenarioDirectory.scenarioFiles(dir))
        .containsExactly(dir.resolve("a.yaml"), dir.resolve("b.yml"), dir.resolve("c.json"));
  }

  @Test
  void aDirectoryWithoutScenarioFilesIsAnError() throws IOException {
    Files.writeString(dir.resolve("notes.txt"), "");

    assertThatThrownBy(() -> ScenarioDirectory.scenarioFiles(dir))
        .isInstanceOf(ScenarioException.class)
        .hasMessage(dir + ": no scenario files (*.yaml, *.yml, *.json) in this directory");
  }

  @Test
  void anUnreadableDirectorySaysPermissionDenied() {
    Path locked = dir.resolve("locked");

    assertThatThrownBy(
            () ->
                ScenarioDirectory.scenarioFiles(
                    locked,
                    d -> {
                      throw new AccessDeniedException(d.toString());
                    }))
        .hasMessage(locked + ": cannot read directory: permission denied");
  }

  @Test
  void aDirectoryThatFailsWhileBeingListedSaysWhy() {
    assertThatThrownBy(
            () ->
                ScenarioDirectory.scenarioFiles(
                    dir,
                    d ->
                        Stream.of(d.resolve("a.yaml"))
                            .peek(
                                p -> {
                                  throw new UncheckedIOException(
                                      new AccessDeniedException(p.toString()));
                                })))
        .hasMessage(dir + ": cannot read directory: permission denied");
  }
}
