package io.gantry.deviceagent.testing;

import com.google.common.base.Splitter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

/**
 * A fake {@code nvidia-cuda-mps-control} shell script that records every run (the GPU, arguments,
 * pipe and log directories from the environment, and the commands on stdin) and behaves like the
 * real one: {@code -d} starts a "daemon" (a {@code control} file in the pipe directory), a client
 * run fails when no daemon is there, and {@code quit} stops it.
 */
public final class FakeMpsControl {
  /** One run: {@code stdin} holds the commands, one per element. */
  public record Call(
      String gpuUuid, String args, String pipeDirectory, String logDirectory, List<String> stdin) {}

  private final Path dir;

  private FakeMpsControl(Path dir) {
    this.dir = dir;
  }

  /** Writes the script to {@code dir}/nvidia-cuda-mps-control. */
  public static FakeMpsControl install(Path dir) {
    FakeMpsControl fake = new FakeMpsControl(dir);
    String script =
        """
        #!/bin/sh
        stdin=""
        if [ "$#" -eq 0 ]; then stdin=$(cat | tr '\\n' ';'); fi
        echo "$CUDA_VISIBLE_DEVICES|$*|$CUDA_MPS_PIPE_DIRECTORY|$CUDA_MPS_LOG_DIRECTORY|$stdin" >> "%1$s/calls.log"
        if [ "$1" = "-d" ]; then
          if [ -e "%1$s/fail-start" ]; then echo "cannot start the MPS control daemon" >&2; exit 1; fi
          touch "$CUDA_MPS_PIPE_DIRECTORY/control"
          exit 0
        fi
        if [ ! -e "$CUDA_MPS_PIPE_DIRECTORY/control" ]; then echo "Cannot find MPS control daemon process"; exit 1; fi
        case "$stdin" in *quit*) rm -f "$CUDA_MPS_PIPE_DIRECTORY/control";; esac
        exit 0
        """
            .formatted(dir);
    try {
      Path executable = dir.resolve("nvidia-cuda-mps-control");
      Files.writeString(executable, script, StandardCharsets.UTF_8);
      Files.setPosixFilePermissions(executable, PosixFilePermissions.fromString("rwxr-xr-x"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return fake;
  }

  public Path executable() {
    return dir.resolve("nvidia-cuda-mps-control");
  }

  /** Every run so far, in order. */
  public List<Call> calls() {
    Path log = dir.resolve("calls.log");
    try {
      if (!Files.exists(log)) {
        return List.of();
      }
      return Files.readAllLines(log, StandardCharsets.UTF_8).stream()
          .map(
              line -> {
                List<String> f = Splitter.on('|').splitToList(line);
                return new Call(
                    f.get(0),
                    f.get(1),
                    f.get(2),
                    f.get(3),
                    Splitter.on(';').omitEmptyStrings().splitToList(f.get(4)));
              })
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** From now on {@code -d} fails (true) or works (false). */
  public void failStarts(boolean fail) {
    try {
      if (fail) {
        Files.writeString(dir.resolve("fail-start"), "");
      } else {
        Files.deleteIfExists(dir.resolve("fail-start"));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The daemon whose pipe directory is {@code pipeDirectory} dies. */
  public static void killDaemon(Path pipeDirectory) {
    try {
      Files.deleteIfExists(pipeDirectory.resolve("control"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
