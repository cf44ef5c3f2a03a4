package io.gantry.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.nodecommon.testing.ChildJvm;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * First contact with {@code gantry simulate FILE.zip}: a file that is not a KAI snapshot, or one
 * whose snapshot.json is malformed, exits 2 with one line naming the file and the field, in a child
 * JVM as a user runs it (no stack trace, nothing on stdout).
 */
class SnapshotFirstContactTest {
  @TempDir Path dir;

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "a text file | | not a ZIP archive (a KAI snapshot is the ZIP file that the scheduler's"
            + " /get-snapshot serves)",
        "no snapshot.json | other.json={} | has no snapshot.json (a KAI snapshot holds one)",
        "bad JSON | snapshot.json={\"rawObjects\": [ | !/snapshot.json:1: invalid JSON: Unexpected"
            + " end-of-input: expected close marker for Array (start marker at [Source:"
            + " REDACTED (`StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION` disabled); line: 1,"
            + " column: 16])",
        "no rawObjects | snapshot.json={\"config\": {}} | !/snapshot.json: rawObjects: required",
        "a list that is an object | snapshot.json={\"rawObjects\": {\"pods\": {}}} |"
            + " !/snapshot.json: rawObjects.pods: expected a list, got an object",
        "a field of the wrong type | snapshot.json={\"rawObjects\": {\"pods\": [{\"metadata\":"
            + " {\"name\": \"p\", \"namespace\": \"n\"}, \"spec\": {\"priority\": \"high\"}}]}} |"
            + " !/snapshot.json: rawObjects.pods[0].spec.priority: expected a number, got \"high\"",
        "a pod without a namespace | snapshot.json={\"rawObjects\": {\"pods\": [{\"metadata\":"
            + " {\"name\": \"p\"}}]}} | !/snapshot.json: rawObjects.pods[0].metadata.namespace:"
            + " required",
        "a BindRequest without its node | snapshot.json={\"rawObjects\": {\"bindRequests\":"
            + " [{\"metadata\": {\"name\": \"p\", \"namespace\": \"n\"}, \"spec\":"
            + " {\"podName\": \"p\"}}]}} | !/snapshot.json:"
            + " rawObjects.bindRequests[0].spec.selectedNode: required",
        "config of the wrong type | snapshot.json={\"config\": {\"Actions\": 3}, \"rawObjects\":"
            + " {}} | !/snapshot.json: config.actions: expected a string"
      })
  void exitsTwoWithOneLineNamingTheField(String name, String entry, String problem)
      throws IOException, InterruptedException {
    Path zip = dir.resolve("snapshot.zip");
    if (entry == null) {
      Files.writeString(zip, "hello\n", UTF_8);
    } else {
      int eq = entry.indexOf('=');
      try (OutputStream out = Files.newOutputStream(zip);
          ZipOutputStream z = new ZipOutputStream(out)) {
        z.putNextEntry(new ZipEntry(entry.substring(0, eq)));
        z.write(entry.substring(eq + 1).getBytes(UTF_8));
        z.closeEntry();
      }
    }

    List<String> err = run(zip);

    String separator = problem.startsWith("!") ? "" : ": ";
    assertThat(err).containsExactly("error: " + zip + separator + problem);
  }

  @Test
  void compareTakesOnlySnapshots() throws IOException, InterruptedException {
    Path scenario = Files.writeString(dir.resolve("s.yaml"), "apiVersion: gantry.io/v1alpha1\n");

    assertThat(run(scenario, "--compare"))
        .containsExactly(
            "error: --compare compares a KAI snapshot's placements: give *.zip files only");
  }

  private List<String> run(Path file, String... options) throws IOException, InterruptedException {
    List<String> args = new java.util.ArrayList<>(List.of("simulate", file.toString()));
    args.addAll(List.of(options));
    ProcessBuilder pb = new ProcessBuilder(ChildJvm.command(List.of(), GantryCli.class, args));
    Path out = dir.resolve("stdout");
    Path err = dir.resolve("stderr");
    pb.redirectOutput(out.toFile()).redirectError(err.toFile());
    Process p = pb.start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("exits within a minute").isTrue();
    List<String> errLines = Files.readAllLines(err, UTF_8);
    assertThat(p.exitValue()).as(String.join("\n", errLines)).isEqualTo(2);
    assertThat(Files.readString(out, UTF_8)).isEmpty();
    return errLines;
  }
}
