package io.gantry.nodecommon.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes a shell script named {@code nvidia-smi} into a directory that answers given argument lists
 * with given output and exit status, so tests exercise the real process path. Any other arguments
 * make it print an error and exit 2.
 */
public final class FakeNvidiaSmi {
  private record Answer(String args, String stdout, String stderr, int status) {}

  private final Path dir;
  private final List<Answer> answers = new ArrayList<>();
  private String preamble = "";

  private FakeNvidiaSmi(Path dir) {
    this.dir = dir;
  }

  /** A fake that will live in {@code dir}. */
  public static FakeNvidiaSmi in(Path dir) {
    return new FakeNvidiaSmi(dir);
  }

  /** {@code nvidia-smi <args>} prints {@code stdout} and exits 0. */
  public FakeNvidiaSmi answer(String args, String stdout) {
    answers.add(new Answer(args, stdout, "", 0));
    return this;
  }

  /**
   * {@code nvidia-smi <args>} prints {@code stdout} and {@code stderr} and exits {@code status}.
   */
  public FakeNvidiaSmi fail(String args, int status, String stdout, String stderr) {
    answers.add(new Answer(args, stdout, stderr, status));
    return this;
  }

  /** A shell command run before answering (for example {@code sleep 10}). */
  public FakeNvidiaSmi first(String shellCommand) {
    preamble = shellCommand + "\n";
    return this;
  }

  /** Writes the script and the files it prints; returns the script's path. */
  public Path install() {
    try {
      StringBuilder script =
          new StringBuilder("#!/bin/sh\n")
              .append("echo \"$*\" >> '")
              .append(callLog())
              .append("'\n")
              .append(preamble)
              .append("case \"$*\" in\n");
      for (int i = 0; i < answers.size(); i++) {
        Answer a = answers.get(i);
        Path out =
            Files.writeString(
                dir.resolve("answer-" + i + ".out"), a.stdout(), StandardCharsets.UTF_8);
        Path err =
            Files.writeString(
                dir.resolve("answer-" + i + ".err"), a.stderr(), StandardCharsets.UTF_8);
        script
            .append("  '")
            .append(a.args())
            .append("') cat '")
            .append(out)
            .append("'; cat '")
            .append(err)
            .append("' >&2; exit ")
            .append(a.status())
            .append(" ;;\n");
      }
      script.append("  *) echo \"fake nvidia-smi: no answer for: $*\" >&2; exit 2 ;;\nesac\n");
      Path executable = dir.resolve("nvidia-smi");
      Files.writeString(executable, script, StandardCharsets.UTF_8);
      Files.setPosixFilePermissions(executable, PosixFilePermissions.fromString("rwxr-xr-x"));
      return executable;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The argument lists the installed script was called with, in order. */
  public List<String> calls() {
    try {
      return Files.exists(callLog()) ? Files.readAllLines(callLog()) : List.of();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private Path callLog() {
    return dir.resolve("calls.log");
  }

  /**
   * A fake replaying the -q -x fixture {@code xmlFixture}. The fixtures have no matching topo -m or
   * -L capture, so those fail the way nvidia-smi does when a query is unavailable.
   */
  public static FakeNvidiaSmi replaying(Path dir, String xmlFixture) {
    return in(dir)
        .answer("-q -x", Fixtures.read(xmlFixture))
        .fail("topo -m", 3, "", "fake nvidia-smi: no topo -m recorded for " + xmlFixture)
        .fail("-L", 3, "", "fake nvidia-smi: no -L recorded for " + xmlFixture);
  }
}
