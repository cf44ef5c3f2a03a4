package io.gantry.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExtenderCommandTest {
  @Test
  void helpDocumentsEveryFlag() {
    CliRunner r = CliRunner.run("extender", "--help");
    assertThat(r.exitCode()).isZero();
    assertThat(r.out())
        .contains(
            "--scenario=FILE",
            "--kubeconfig=FILE",
            "--config=FILE",
            "--port=PORT",
            "--reservation-ttl=DURATION",
            "--http-timeout=DURATION",
            "--[no-]fair-share-waiting",
            "--max-request-bytes=BYTES",
            "--request-timeout=DURATION",
            "--network-threads=N",
            "--webhook-failure-policy=POLICY",
            "--webhook-skip-namespace=NAMESPACE",
            "--tls-cert-file=FILE",
            "--tls-key-file=FILE");
  }

  @Test
  void aBadDurationNamesTheFlag() {
    CliRunner r =
        CliRunner.run(
            "extender", "--scenario", "examples/quickstart.yaml", "--http-timeout", "soon");
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err())
        .contains("--http-timeout: expected a duration such as 5s or 1m30s, got soon");
  }

  @Test
  void aNegativeThreadCountNamesTheFlag() {
    CliRunner r =
        CliRunner.run(
            "extender", "--scenario", "examples/quickstart.yaml", "--network-threads", "-1");
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err()).contains("--network-threads must be 0 (one per core) or more, got -1");
  }

  @Test
  void aCertificateWithoutAKeyIsAUsageErrorNamingTheFlag() {
    CliRunner r =
        CliRunner.run(
            "extender",
            "--scenario",
            "examples/quickstart.yaml",
            "--tls-cert-file",
            "src/test/resources/tls/a.crt");
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err()).contains("--tls-cert-file needs --tls-key-file");
  }

  @Test
  void anUnreadableKeyStopsStartUpNamingTheFile(@TempDir Path dir) {
    Path missing = dir.resolve("missing.key");
    CliRunner r =
        CliRunner.run(
            "extender",
            "--scenario",
            "../../examples/quickstart.yaml",
            "--port",
            "0",
            "--tls-cert-file",
            "src/test/resources/tls/a.crt",
            "--tls-key-file",
            missing.toString());
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err()).contains("cannot read " + missing);
  }

  @Test
  void anInvalidScenarioStopsStartUpWithExitStatusTwo(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("bad.yaml");
    Files.writeString(
        file, "apiVersion: gantry.io/v1alpha1\nkind: Scenario\nmetadata: {name: bad}\nnodez: []\n");
    CliRunner r = CliRunner.run("extender", "--scenario", file.toString(), "--port", "0");
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err()).contains("bad.yaml").contains("nodez");
  }

  @Test
  void theReadmeShowsTheKubeSchedulerConfigurationTheChartShips() throws Exception {
    String chart =
        Files.readString(
            Path.of("..", "..", "charts", "gantry", "extender", "kube-scheduler-config.yaml"));
    assertThat(chart).contains("nodeCacheCapable: true", "ignorable: false", "httpTimeout: 5s");
    assertThat(Files.readString(Path.of("..", "..", "README.md")))
        .contains("```yaml\n" + chart + "```");
  }
}
