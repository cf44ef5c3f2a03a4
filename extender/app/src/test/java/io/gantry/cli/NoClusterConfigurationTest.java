package io.gantry.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.nodecommon.testing.ChildJvm;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * First contact: a cluster command started without a usable configuration exits 2 with one line
 * saying what it tried, or which file is wrong, in a child JVM whose environment has no {@code
 * $KUBECONFIG}, no {@code ~/.kube/config} and is outside a pod (it used to print a {@code
 * NumberFormatException} trace, and a SnakeYAML trace for a file that is not YAML).
 */
class NoClusterConfigurationTest {
  private static final String KUBECONFIG =
      """
      apiVersion: v1
      kind: Config
      clusters: [{name: c, cluster: {server: "https://127.0.0.1:6443"}}]
      users: [{name: u, user: {token: t}}]
      contexts: [{name: dev, context: {cluster: c, user: u}}]
      current-context: dev
      """;

  @TempDir Path home;

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "scheduler",
        "extender",
        "crds apply",
        "explain pod/x",
        "queues",
        "snapshot export"
      })
  void exitsTwoWithOneLineNamingWhatWasTried(String command)
      throws IOException, InterruptedException {
    assertExitsTwoWith(
        command,
        Map.of(),
        List.of(),
        "error: cannot read the cluster configuration: no cluster configuration found: no"
            + " --kubeconfig, $KUBECONFIG is not set, "
            + home.resolve(".kube").resolve("config")
            + " does not exist, and $KUBERNETES_SERVICE_HOST is not set (not in a pod)");
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"scheduler", "extender", "crds apply"})
  void aKubeconfigThatIsNotYamlIsNamedInOneLine(String command)
      throws IOException, InterruptedException {
    Path file = home.resolve("random");
    Files.write(file, new byte[] {'{', ':', 0x01, '[', '"', '\n', ']', ':', ':'});

    assertExitsTwoWith(
        command,
        Map.of(),
        List.of("--kubeconfig", file.toString()),
        "error: cannot read the cluster configuration: "
            + file
            + ": not a kubeconfig (YAML with clusters, users, contexts)");
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"scheduler", "extender", "crds apply"})
  void aContextNoneOfTheKubeconfigVariablesFilesHasIsNamedWithTheOnesThereAre(String command)
      throws IOException, InterruptedException {
    Path first = Files.writeString(home.resolve("a"), KUBECONFIG, UTF_8);
    Path missing = home.resolve("missing");

    assertExitsTwoWith(
        command,
        Map.of("KUBECONFIG", missing + File.pathSeparator + first),
        List.of("--context", "prod"),
        "error: cannot read the cluster configuration: "
            + first
            + ": no context named 'prod' (contexts: [dev])");
  }

  private void assertExitsTwoWith(
      String command, Map<String, String> env, List<String> options, String line)
      throws IOException, InterruptedException {
    List<String> args = new ArrayList<>(List.of(command.split(" ", -1)));
    args.addAll(options);
    ProcessBuilder pb =
        new ProcessBuilder(ChildJvm.command(List.of("-Duser.home=" + home), GantryCli.class, args));
    pb.environment().remove("KUBECONFIG");
    pb.environment().remove("KUBERNETES_SERVICE_HOST");
    pb.environment().remove("KUBERNETES_SERVICE_PORT");
    pb.environment().putAll(env);
    Path out = home.resolve("stdout");
    Path err = home.resolve("stderr");
    pb.redirectOutput(out.toFile()).redirectError(err.toFile());

    Process p = pb.start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("exits within a minute").isTrue();

    List<String> errLines = Files.readAllLines(err, UTF_8);
    assertThat(p.exitValue()).as(String.join("\n", errLines)).isEqualTo(2);
    assertThat(errLines).containsExactly(line);
    assertThat(Files.readString(out, UTF_8)).isEmpty();
  }
}
