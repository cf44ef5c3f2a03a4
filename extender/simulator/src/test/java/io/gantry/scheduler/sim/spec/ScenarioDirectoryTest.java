package io.gantry.scheduler.sim.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
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
  void anUnreadableDirectorySaysPermissionDenied() throws IOException {
    Path locked = Files.createDirectory(dir.resolve("locked"));
    Files.writeString(locked.resolve("a.yaml"), "");
    Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("---------"));
    try {
      assumeFalse(Files.isReadable(locked), "this user reads any directory (root)");

      assertThatThrownBy(() -> ScenarioDirectory.scenarioFiles(locked))
          .hasMessage(locked + ": cannot read directory: permission denied");
    } finally {
      Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("rwx------"));
    }
  }
}
