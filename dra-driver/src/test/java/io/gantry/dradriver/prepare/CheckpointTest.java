package io.gantry.dradriver.prepare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CheckpointTest {
  @TempDir Path dir;

  private static final PreparedClaim CLAIM =
      new PreparedClaim(
          "default",
          "uid-1",
          "c1",
          List.of(
              new PreparedDevice(
                  List.of("gpu"),
                  "node-a",
                  "gpu-0",
                  List.of("k8s.gpu.gantry.io/claim=uid-1-gpu-0"))));

  @Test
  void whatIsPutIsThereAfterLoadingAgainAndWhatIsRemovedIsNot() throws Exception {
    Path file = dir.resolve("plugin/checkpoint.json");
    Checkpoint checkpoint = Checkpoint.load(file);
    checkpoint.put(CLAIM);
    checkpoint.put(new PreparedClaim("default", "uid-2", "c2", List.of()));

    Checkpoint reloaded = Checkpoint.load(file);
    reloaded.remove("uid-2");
    reloaded.remove("never-there");

    assertThat(Checkpoint.load(file).get("uid-1")).hasValue(CLAIM);
    assertThat(Checkpoint.load(file).get("uid-2")).isEqualTo(Optional.empty());
    try (var files = Files.list(file.getParent())) {
      assertThat(files.toList()).containsExactly(file);
    }
  }

  @Test
  void aDamagedFileIsRefusedNamingIt() throws Exception {
    Path file = Files.writeString(dir.resolve("checkpoint.json"), "{\"version\": 1, \"claims\": ");

    assertThatThrownBy(() -> Checkpoint.load(file))
        .isInstanceOf(IOException.class)
        .hasMessageStartingWith("cannot read the checkpoint " + file + ": ");
  }

  @Test
  void aFileOfAnotherVersionIsRefused() throws Exception {
    Path file =
        Files.writeString(dir.resolve("checkpoint.json"), "{\"version\": 2, \"claims\": {}}");

    assertThatThrownBy(() -> Checkpoint.load(file))
        .isInstanceOf(IOException.class)
        .hasMessage("checkpoint " + file + " has version 2, this driver reads version 1");
  }
}
