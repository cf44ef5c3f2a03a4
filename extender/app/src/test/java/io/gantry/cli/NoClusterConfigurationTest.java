package io.gantry.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * First contact: a cluster command started with no kubeconfig flag, no {@code $KUBECONFIG}, no
 * {@code ~/.kube/config} and outside a pod exits 2 with one line saying what it tried, in a child
 * JVM whose environment has none of them (it used to print a {@code NumberFormatException} trace).
 */
class NoClusterConfigurationTest {
  @TempDir Path home;

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"scheduler", "extender", "crds apply", "explain pod/x", "queues"})
  void exitsTwoWithOneLineNamingWhatWasTried(String command)
      throws IOException, InterruptedException {
    List<String> args = new ArrayList<>();
    args.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    args.add("-Duser.home=" + home);
    args.add("-cp");
    args.add(System.getProperty("java.class.path"));
    args.add(GantryCli.class.getName());
    args.addAll(List.of(command.split(" ")));
    ProcessBuilder pb = new ProcessBuilder(args);
    pb.environment().remove("KUBECONFIG");
    pb.environment().remove("KUBERNETES_SERVICE_HOST");
    pb.environment().remove("KUBERNETES_SERVICE_PORT");
    Path out = home.resolve("stdout");
    Path err = home.resolve("stderr");
    pb.redirectOutput(out.toFile()).redirectError(err.toFile());

    Process p = pb.start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("exits within a minute").isTrue();

    List<String> errLines = Files.readAllLines(err, UTF_8);
    assertThat(p.exitValue()).as(String.join("\n", errLines)).isEqualTo(2);
    assertThat(errLines)
        .containsExactly(
            "error: cannot read the cluster configuration: no cluster configuration found: no"
                + " --kubeconfig, $KUBECONFIG is not set, "
                + home.resolve(".kube").resolve("config")
                + " does not exist, and $KUBERNETES_SERVICE_HOST is not set (not in a pod)");
    assertThat(Files.readString(out, UTF_8)).isEmpty();
  }
}
