package io.gantry.kubemodel.read;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** I/O failures read as what went wrong, without Java class names or a repeated path. */
class IoProblemTest {
  record Case(String name, IOException exception, String expected) {
    @Override
    public String toString() {
      return name;
    }
  }

  static List<Case> cases() {
    return List.of(
        new Case("permission", new AccessDeniedException("/data/dir"), "permission denied"),
        new Case("missing", new NoSuchFileException("/data/x.yaml"), "no such file or directory"),
        new Case("not a directory", new NotDirectoryException("/data/x"), "not a directory"),
        new Case(
            "reason from the system",
            new FileSystemException("/data/x", null, "Input/output error"),
            "input/output error"),
        new Case("no reason", new FileSystemLoopException("/data/loop"), "/data/loop"),
        new Case("plain", new IOException("stream closed"), "stream closed"),
        new Case("no message", new IOException(), "IOException"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void describes(Case c) {
    assertThat(IoProblem.describe(c.exception())).isEqualTo(c.expected());
  }
}
