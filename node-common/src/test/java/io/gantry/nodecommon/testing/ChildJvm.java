package io.gantry.nodecommon.testing;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A command line that runs a main class in a child JVM as a user runs it: this JVM's {@code java},
 * on the main classes only, so a component's own logging configuration applies rather than the
 * tests' one (process-level tests of exit statuses, output lines and signals).
 */
public final class ChildJvm {
  private ChildJvm() {}

  /** {@code java [jvmOptions] -cp <main classes> mainClass args}. */
  public static List<String> command(
      List<String> jvmOptions, Class<?> mainClass, List<String> args) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.add("-cp");
    command.add(mainClassPath());
    command.add(mainClass.getName());
    command.addAll(args);
    return command;
  }

  /** This JVM's class path without the test classes of any module. */
  static String mainClassPath() {
    return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator, -1))
        .filter(entry -> !entry.endsWith("test-classes") && !entry.endsWith("-tests.jar"))
        .collect(Collectors.joining(File.pathSeparator));
  }
}
