package io.gantry.deviceagent.mps;

import static java.util.Objects.requireNonNull;

import io.gantry.nodecommon.nvidiasmi.ExecutableLookup;
import io.gantry.nodecommon.nvidiasmi.TempFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@code nvidia-cuda-mps-control}, the MPS control program, for one GPU at a time: {@code -d}
 * starts that GPU's control daemon (it forks and returns), and without arguments it is the client
 * that writes commands to the daemon's control pipe (one per line on its stdin) and prints the
 * answers. Every run gets the GPU's environment: {@code CUDA_VISIBLE_DEVICES=<uuid>} (the daemon
 * then serves that GPU alone, as device 0), {@code CUDA_MPS_PIPE_DIRECTORY} and {@code
 * CUDA_MPS_LOG_DIRECTORY} (both per GPU, under the configured roots). Thread-safe.
 */
public final class MpsControl {
  /** The command looked up on PATH when no path is configured. */
  public static final String DEFAULT_COMMAND = "nvidia-cuda-mps-control";

  private final Path executable;
  private final Path pipeRoot;
  private final Path logRoot;
  private final Duration timeout;

  private MpsControl(Path executable, Path pipeRoot, Path logRoot, Duration timeout) {
    this.executable = requireNonNull(executable, "executable is null");
    this.pipeRoot = requireNonNull(pipeRoot, "pipeRoot is null");
    this.logRoot = requireNonNull(logRoot, "logRoot is null");
    this.timeout = requireNonNull(timeout, "timeout is null");
  }

  /**
   * The control program {@code command} names (a path, or a name looked up in {@code
   * pathVariable}), with per-GPU directories under {@code pipeRoot} and {@code logRoot}.
   *
   * @throws MpsException when there is no such executable
   */
  public static MpsControl locate(
      String command, String pathVariable, Path pipeRoot, Path logRoot, Duration timeout)
      throws MpsException {
    Path found =
        ExecutableLookup.find(command, pathVariable)
            .orElseThrow(
                () ->
                    new MpsException(
                        command.contains("/")
                            ? command + " is not an executable file"
                            : command + " is not on PATH"));
    return new MpsControl(found, pipeRoot, logRoot, timeout);
  }

  /** The GPU's pipe directory on the host: what its MPS clients mount. */
  public Path pipeDirectory(String gpuUuid) {
    return pipeRoot.resolve(gpuUuid);
  }

  /**
   * Starts the GPU's control daemon ({@code nvidia-cuda-mps-control -d}).
   *
   * @throws MpsException when it cannot be started or exits with a non-zero status
   */
  public void startDaemon(String gpuUuid) throws MpsException {
    run(gpuUuid, List.of("-d"), "");
  }

  /**
   * Writes {@code commands} to the GPU's daemon through its control pipe and returns the answers.
   *
   * @throws MpsException when the client fails (no daemon answering, say) or does not finish
   */
  public String send(String gpuUuid, List<String> commands) throws MpsException {
    return run(gpuUuid, List.of(), String.join("\n", commands) + "\n");
  }

  private String run(String gpuUuid, List<String> args, String stdin) throws MpsException {
    String commandLine =
        "nvidia-cuda-mps-control" + (args.isEmpty() ? "" : " " + String.join(" ", args));
    Path in = null;
    Path out = null;
    Process process = null;
    try {
      Path pipes = Files.createDirectories(pipeDirectory(gpuUuid));
      Path logs = Files.createDirectories(logRoot.resolve(gpuUuid));
      in = Files.createTempFile("mps-control-", ".in");
      out = Files.createTempFile("mps-control-", ".out");
      Files.writeString(in, stdin, StandardCharsets.UTF_8);
      ProcessBuilder builder = new ProcessBuilder(command(args));
      Map<String, String> env = builder.environment();
      env.put("CUDA_VISIBLE_DEVICES", gpuUuid);
      env.put("CUDA_MPS_PIPE_DIRECTORY", pipes.toString());
      env.put("CUDA_MPS_LOG_DIRECTORY", logs.toString());
      process =
          builder
              .redirectInput(in.toFile())
              .redirectOutput(out.toFile())
              .redirectErrorStream(true)
              .start();
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly().waitFor();
        throw new MpsException(
            commandLine
                + " for GPU "
                + gpuUuid
                + " did not finish within "
                + timeout.toMillis()
                + " ms");
      }
      String output = Files.readString(out, StandardCharsets.UTF_8);
      if (process.exitValue() != 0) {
        throw new MpsException(
            commandLine
                + " for GPU "
                + gpuUuid
                + " exited with status "
                + process.exitValue()
                + (output.isBlank() ? "" : ": " + output.strip()));
      }
      return output;
    } catch (IOException e) {
      throw new MpsException(
          commandLine + " for GPU " + gpuUuid + " could not be run: " + e.getMessage());
    } catch (InterruptedException e) {
      if (process != null) {
        process.destroyForcibly();
      }
      Thread.currentThread().interrupt();
      throw new MpsException(commandLine + " for GPU " + gpuUuid + " was interrupted");
    } finally {
      TempFiles.deleteQuietly(in);
      TempFiles.deleteQuietly(out);
    }
  }

  private List<String> command(List<String> args) {
    return args.isEmpty()
        ? List.of(executable.toString())
        : List.of(executable.toString(), args.get(0));
  }
}
