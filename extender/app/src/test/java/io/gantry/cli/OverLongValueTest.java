package io.gantry.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.kubemodel.read.YamlTreeReader;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A scenario whose string value is one character over the documented limit exits 2 with one line
 * naming the file, the line and the limit, in a child JVM (a string of megabytes used to keep
 * SnakeYAML busy for minutes).
 */
class OverLongValueTest {
  @TempDir Path dir;

  @Test
  void aValueOverTheStringLimitExitsTwoWithOneLine() throws Exception {
    String head = "apiVersion: gantry.io/v1alpha1\nkind: Scenario\nmetadata:\n  name: long\n";
    String key = "  description: ";
    Path file = dir.resolve("long.yaml");
    Files.writeString(
        file,
        head + key + "x".repeat(YamlTreeReader.MAX_STRING_CHARS + 1 - key.length()) + "\n",
        UTF_8);

    ChildJvm run = ChildJvm.run(dir, "simulate", file.toString());

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err())
        .containsExactly(
            "error: "
                + file
                + ":5: line is 262145 characters long, more than the limit of 262144 for a string"
                + " value or a line of YAML (a JSON file, named .json, may have longer lines)");
    assertThat(run.out()).isEmpty();
  }
}
