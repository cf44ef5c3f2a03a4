package io.gantry.chart;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.base.CharMatcher;
import com.google.common.base.Splitter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The images' Dockerfiles (no image can be built here): a Temurin 17 JRE base, an explicit user,
 * and every {@code COPY} source a file the Maven build has produced by the time this module runs.
 */
class DockerfilesTest {
  /** One instruction: its keyword and its arguments, with continuation lines joined. */
  record Instruction(String keyword, String arguments) {}

  static Stream<Path> dockerfiles() throws IOException {
    Path images = RenderedChart.repositoryRoot().resolve("images");
    try (Stream<Path> dirs = Files.list(images)) {
      List<Path> files =
          dirs.map(d -> d.resolve("Dockerfile")).filter(Files::isRegularFile).sorted().toList();
      assertThat(files).as("Dockerfiles under images/").isNotEmpty();
      return files.stream();
    }
  }

  @ParameterizedTest
  @MethodSource("dockerfiles")
  void baseIsTemurin17JreAndTheUserIsExplicit(Path dockerfile) throws IOException {
    List<Instruction> instructions = parse(dockerfile);

    assertThat(instructions)
        .filteredOn(i -> i.keyword().equals("FROM"))
        .extracting(Instruction::arguments)
        .containsExactly("eclipse-temurin:17-jre");
    assertThat(instructions).filteredOn(i -> i.keyword().equals("USER")).hasSize(1);
    assertThat(instructions)
        .filteredOn(i -> i.keyword().equals("ENTRYPOINT"))
        .singleElement()
        .satisfies(i -> assertThat(i.arguments()).startsWith("[\"java\", \"-jar\""));
  }

  @ParameterizedTest
  @MethodSource("dockerfiles")
  void everyCopySourceIsAFileTheBuildProduces(Path dockerfile) throws IOException {
    Path root = RenderedChart.repositoryRoot();
    List<Instruction> copies =
        parse(dockerfile).stream().filter(i -> i.keyword().equals("COPY")).toList();

    assertThat(copies).isNotEmpty();
    for (Instruction copy : copies) {
      List<String> parts =
          Splitter.on(CharMatcher.whitespace()).omitEmptyStrings().splitToList(copy.arguments());
      assertThat(parts).as(copy.arguments()).hasSizeGreaterThanOrEqualTo(2);
      for (String part : parts.subList(0, parts.size() - 1)) {
        Path source = root.resolve(part).normalize();
        assertThat(source).as("COPY source of %s", dockerfile).isRegularFile();
        assertThat(root.relativize(source).toString()).contains("/target/");
      }
    }
  }

  @Test
  void theSchedulerImageRunsAsNonRoot() throws IOException {
    Path dockerfile = RenderedChart.repositoryRoot().resolve("images/scheduler/Dockerfile");
    String user =
        parse(dockerfile).stream()
            .filter(i -> i.keyword().equals("USER"))
            .findFirst()
            .orElseThrow()
            .arguments();
    assertThat(user).doesNotStartWith("0").doesNotStartWith("root");
  }

  static List<Instruction> parse(Path dockerfile) throws IOException {
    List<Instruction> out = new ArrayList<>();
    StringBuilder pending = new StringBuilder();
    for (String raw : Files.readAllLines(dockerfile, StandardCharsets.UTF_8)) {
      String line = raw.strip();
      if (pending.length() == 0 && (line.isEmpty() || line.startsWith("#"))) {
        continue;
      }
      if (line.endsWith("\\")) {
        pending.append(line, 0, line.length() - 1).append(' ');
        continue;
      }
      pending.append(line);
      String text = pending.toString().strip();
      pending.setLength(0);
      int space = text.indexOf(' ');
      out.add(
          new Instruction(
              text.substring(0, space).toUpperCase(Locale.ROOT),
              text.substring(space + 1).strip()));
    }
    return out;
  }
}
