package io.gantry.deviceagent.enforcement;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which pod a process belongs to, from its cgroup ({@code <proc>/<pid>/cgroup}): the kubelet puts
 * each pod's containers under a cgroup named for the pod's UID, {@code
 * /kubepods/burstable/pod<uid>/<container>} with the cgroupfs driver and {@code
 * .../kubepods-burstable-pod<uid with _ for ->.slice/...} with the systemd driver, on cgroup v1 and
 * v2 alike. {@code proc} is {@code /proc} on a node (the agent needs the host's PID namespace) and
 * a directory of the same shape in tests.
 */
public final class PodCgroups {
  private static final Pattern POD_UID =
      Pattern.compile(
          "pod([0-9a-fA-F]{8}[-_][0-9a-fA-F]{4}[-_][0-9a-fA-F]{4}[-_][0-9a-fA-F]{4}[-_][0-9a-fA-F]{12})");

  private final Path proc;

  public PodCgroups(Path proc) {
    this.proc = requireNonNull(proc, "proc is null");
  }

  /**
   * The UID of the pod process {@code pid} runs in; empty for a process outside any pod (or one
   * that has exited meanwhile).
   *
   * @throws IOException when the cgroup file exists but cannot be read
   */
  public Optional<String> podUid(long pid) throws IOException {
    String cgroups;
    try {
      cgroups =
          Files.readString(
              proc.resolve(Long.toString(pid)).resolve("cgroup"), StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
    for (String line : cgroups.lines().toList()) {
      Matcher m = POD_UID.matcher(line);
      if (m.find()) {
        return Optional.of(m.group(1).replace('_', '-').toLowerCase(Locale.ROOT));
      }
    }
    return Optional.empty();
  }
}
