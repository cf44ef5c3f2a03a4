package io.gantry.scheduler.kube.kaisnapshot;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gantry.kubemodel.read.ScenarioException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;

/** The bounds of {@link KaiSnapshotReader}, and what it keeps of a snapshot. */
class KaiSnapshotReaderTest {
  @Test
  void aZipBombStopsAtTheLimitWhateverItsEntriesClaim() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
      zip.putNextEntry(new ZipEntry("padding"));
      zip.write(new byte[600_000]);
      zip.closeEntry();
      zip.putNextEntry(new ZipEntry("snapshot.json"));
      // whitespace between tokens: no string limit stops it first
      zip.write("{\"rawObjects\": {}".getBytes(UTF_8));
      zip.write(" ".repeat(600_000).getBytes(UTF_8));
      zip.write("}".getBytes(UTF_8));
      zip.closeEntry();
    }
    assertThat(bytes.size()).isLessThan(10_000);

    assertThatThrownBy(
            () ->
                KaiSnapshotReader.read(
                    "bomb.zip", new ByteArrayInputStream(bytes.toByteArray()), 1_000_000))
        .isInstanceOf(ScenarioException.class)
        .hasMessage("bomb.zip: inflates to more than 1000000 bytes; not read further");
  }

  @Test
  void aStringOverTheScenarioLimitIsRefused() throws Exception {
    String json = "{\"rawObjects\": {}, \"x\": \"" + "a".repeat(300 * 1024) + "\"}";
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
      zip.putNextEntry(new ZipEntry("snapshot.json"));
      zip.write(json.getBytes(UTF_8));
      zip.closeEntry();
    }

    assertThatThrownBy(
            () -> KaiSnapshotReader.read("s.zip", new ByteArrayInputStream(bytes.toByteArray())))
        .isInstanceOf(ScenarioException.class)
        // the length Jackson reports is where it noticed, which depends on how it read the stream
        .hasMessageStartingWith("s.zip!/snapshot.json: String value length (")
        .hasMessageEndingWith(") exceeds the maximum allowed (262144)");
  }

  @Test
  void listsGantryDoesNotReadAreNamedAndNullListsAreEmpty() throws Exception {
    String json =
        """
        {"config": null, "schedulerParams": null,
         "rawObjects": {"pods": null, "configMaps": [{"metadata": {"name": "b"}}],
                        "bindRequests": [], "nodes": [{"metadata": {"name": "n"}}]}}
        """;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
      zip.putNextEntry(new ZipEntry("snapshot.json"));
      zip.write(json.getBytes(UTF_8));
      zip.closeEntry();
    }

    KaiSnapshot s = KaiSnapshotReader.read("s.zip", new ByteArrayInputStream(bytes.toByteArray()));

    assertThat(s.unreadLists()).containsExactly("configMaps");
    assertThat(s.objects().pods()).isEmpty();
    assertThat(s.objects().nodes()).extracting(n -> n.getMetadata().getName()).containsExactly("n");
    assertThat(s.config().isEmpty()).isTrue();
  }
}
