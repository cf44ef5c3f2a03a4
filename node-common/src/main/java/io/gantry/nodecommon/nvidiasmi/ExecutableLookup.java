package io.gantry.nodecommon.nvidiasmi;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Optional;

/** Finds an executable the way a shell does: a name with a slash is a path, others search PATH. */
public final class ExecutableLookup {
  private ExecutableLookup() {}

  /**
   * The executable file {@code command} names, searching the directories of {@code pathVariable} (a
   * PATH value, entries separated by ':') in order when {@code command} has no slash.
   */
  public static Optional<Path> find(String command, String pathVariable) {
    if (command.isEmpty()) {
      return Optional.empty();
    }
    if (command.contains(File.separator)) {
      return executable(command);
    }
    if (pathVariable == null) {
      return Optional.empty();
    }
    for (String dir : pathVariable.split(File.pathSeparator, -1)) {
      Optional<Path> found = executable((dir.isEmpty() ? "." : dir) + File.separator + command);
      if (found.isPresent()) {
        return found;
      }
    }
    return Optional.empty();
  }

  private static Optional<Path> executable(String candidate) {
    try {
      Path p = Path.of(candidate);
      return Files.isRegularFile(p) && Files.isExecutable(p)
          ? Optional.of(p.toAbsolutePath())
          : Optional.empty();
    } catch (InvalidPathException e) {
      return Optional.empty();
    }
  }
}
