package io.gantry.nodecommon.nvidiasmi;

import static java.util.Objects.requireNonNull;

import io.gantry.nodecommon.nvidiasmi.NvidiaSmiException.Reason;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs nvidia-smi and returns what it printed. Each call starts one process, waits at most the
 * timeout (then kills it and its children) and fails with nvidia-smi's own message on a non-zero
 * exit. Thread-safe: the instance holds only the executable and the timeout.
 */
public final class NvidiaSmi {
  /** The command looked up on PATH when no path is configured. */
  public static final String DEFAULT_COMMAND = "nvidia-smi";

  private static final Logger log = LoggerFactory.getLogger(NvidiaSmi.class);

  private final Path executable;
  private final Duration timeout;

  private NvidiaSmi(Path executable, Duration timeout) {
    this.executable = requireNonNull(executable, "executable is null");
    this.timeout = requireNonNull(timeout, "timeout is null");
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("timeout must be positive, got " + timeout);
    }
  }

  /**
   * nvidia-smi as {@code command} names it: a path when it has a slash, otherwise looked up in
   * {@code pathVariable} (the PATH value).
   *
   * @throws NvidiaSmiException NOT_FOUND when there is no such executable
   */
  public static NvidiaSmi locate(String command, String pathVariable, Duration timeout)
      throws NvidiaSmiException {
    Path found =
        ExecutableLookup.find(command, pathVariable)
            .orElseThrow(
                () ->
                    new NvidiaSmiException(
                        Reason.NOT_FOUND,
                        command.contains("/")
                            ? "no NVIDIA GPU found: " + command + " is not an executable file"
                            : "no NVIDIA GPU found: " + command + " is not on PATH"));
    return new NvidiaSmi(found, timeout);
  }

  public Path executable() {
    return executable;
  }

  /**
   * Runs nvidia-smi with {@code args} and returns its standard output (UTF-8).
   *
   * @throws NvidiaSmiException FAILED (non-zero exit: the message carries its stderr, or its stdout
   *     when stderr is empty, since nvidia-smi prints most errors there) or TIMED_OUT
   */
  public String run(String... args) throws NvidiaSmiException {
    String commandLine = "nvidia-smi " + String.join(" ", args);
    List<String> command = new ArrayList<>();
    command.add(executable.toString());
    command.addAll(List.of(args));
    Path out = null;
    Path err = null;
    Process process = null;
    try {
      out = Files.createTempFile("nvidia-smi-", ".out");
      err = Files.createTempFile("nvidia-smi-", ".err");
      long started = System.nanoTime();
      process =
          new ProcessBuilder(command)
              .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
              .redirectOutput(out.toFile())
              .redirectError(err.toFile())
              .start();
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly().waitFor();
        throw new NvidiaSmiException(
            Reason.TIMED_OUT,
            commandLine + " did not finish within " + timeout.toMillis() + " ms and was killed");
      }
      log.debug(
          "{} exited with {} after {} ms",
          commandLine,
          process.exitValue(),
          (System.nanoTime() - started) / 1_000_000);
      if (process.exitValue() != 0) {
        // a failing nvidia-smi's words are shown as they are, undecodable bytes replaced
        String stdout = new String(Files.readAllBytes(out), StandardCharsets.UTF_8);
        String stderr = new String(Files.readAllBytes(err), StandardCharsets.UTF_8).strip();
        String said = stderr.isEmpty() ? stdout.strip() : stderr;
        throw new NvidiaSmiException(
            Reason.FAILED,
            commandLine
                + " exited with status "
                + process.exitValue()
                + (said.isEmpty() ? "" : ": " + said));
      }
      return answer(out, commandLine);
    } catch (IOException e) {
      throw new NvidiaSmiException(
          Reason.FAILED, commandLine + " could not be run: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new NvidiaSmiException(Reason.FAILED, commandLine + " was interrupted", e);
    } finally {
      TempFiles.deleteQuietly(out);
      TempFiles.deleteQuietly(err);
    }
  }

  /**
   * The standard output of a successful run, which must be UTF-8: other bytes are an answer that
   * cannot be read (UNPARSEABLE, exit 3), not a missing GPU.
   */
  private static String answer(Path out, String commandLine)
      throws IOException, NvidiaSmiException {
    try {
      return Files.readString(out, StandardCharsets.UTF_8);
    } catch (CharacterCodingException e) {
      throw new NvidiaSmiException(
          Reason.UNPARSEABLE, commandLine + ": the output is not UTF-8 text", e);
    }
  }
}
