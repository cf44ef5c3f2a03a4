package io.gantry.kubemodel.read;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A scenario is a regular file, in UTF-8, of at most 1 GiB; anything else is named as such. */
class ScenarioFileReaderTest {
  @TempDir Path dir;

  @Test
  void readsUtf8Text() throws IOException, ScenarioException {
    Path file = dir.resolve("s.yaml");
    Files.writeString(file, "name: café ✓\n", UTF_8);

    assertThat(ScenarioFileReader.read(file)).isEqualTo("name: café ✓\n");
  }

  @Test
  void missingFile() {
    Path file = dir.resolve("nope.yaml");

    assertThatThrownBy(() -> ScenarioFileReader.read(file))
        .hasMessage(file + ": no such file or directory");
  }

  @Test
  void aDirectoryIsNotAScenarioFile() {
    assertThatThrownBy(() -> ScenarioFileReader.read(dir))
        .hasMessage(dir + ": is a directory, not a scenario file");
  }

  @Test
  void aDeviceIsNotARegularFile() {
    Path devNull = Path.of("/dev/null");
    assertThatThrownBy(() -> ScenarioFileReader.read(devNull))
        .hasMessage(
            "/dev/null: not a regular file (a scenario is a regular file, or a directory of them)");
  }

  @Test
  void notUtf8NamesTheLine() throws IOException {
    Path file = dir.resolve("latin1.yaml");
    byte[] latin1 = "a: 1\nb: caf\u00e9\nc: 2\n".getBytes(ISO_8859_1);
    Files.write(file, latin1);

    assertThatThrownBy(() -> ScenarioFileReader.read(file))
        .isInstanceOf(ScenarioException.class)
        .hasMessage(file + ":2: not valid UTF-8");
  }

  @Test
  void aTruncatedSequenceAtTheEndIsNotUtf8() throws IOException {
    Path file = dir.resolve("cut.yaml");
    byte[] text = "a: 1\n\n".getBytes(UTF_8);
    byte[] cut = Arrays.copyOf(text, text.length + 1);
    cut[text.length] = (byte) 0xE2;
    Files.write(file, cut);

    assertThatThrownBy(() -> ScenarioFileReader.read(file))
        .hasMessage(file + ":3: not valid UTF-8");
  }

  @Test
  void aFileOverTheSizeLimitIsRefusedBeforeReading() throws IOException {
    Path file = dir.resolve("huge.yaml");
    // Sparse: the file claims its size without taking the disk.
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      f.setLength(ScenarioFileReader.MAX_FILE_BYTES + 1);
    }

    assertThatThrownBy(() -> ScenarioFileReader.read(file))
        .hasMessage(
            file
                + ": is 1073741825 bytes, more than the limit of 1073741824 bytes (1 GiB) for a"
                + " scenario file");
  }
}
