package io.gantry.dradriver.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.dradriver.DraDriverWiring;
import io.gantry.nodecommon.testing.Kubeconfig;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line's flags and its refusals before anything starts. */
class ServeCommandTest {
  @TempDir Path tmp;

  private record Run(int status, String out, String err) {}

  private Run run(Map<String, String> environment, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    var cli = DraDriverCli.commandLine(environment, new CountDownLatch(0));
    cli.setOut(new PrintWriter(out));
    cli.setErr(new PrintWriter(err));
    int status = cli.execute(args);
    return new Run(status, out.toString(), err.toString());
  }

  @Test
  void helpDocumentsEveryFlagWithItsDefault() {
    Run run = run(Map.of(), "serve", "--help");

    assertThat(run.status()).isZero();
    assertThat(run.out())
        .contains(
            "--node-name=NAME",
            "--kubeconfig=FILE",
            "--context=NAME",
            "--plugin-registry-dir=DIR",
            "/var/lib/kubelet/plugins_registry.",
            "--plugin-dir=DIR",
            "/var/lib/kubelet/plugins/gpu.gantry.io.",
            "--cdi-dir=DIR",
            "/var/run/cdi.",
            "--discovery-interval=SECONDS",
            "--nvidia-smi=PATH",
            "--timeout=SECONDS");
  }

  @Test
  void withoutACommandItSaysWhichOneToRun() {
    Run run = run(Map.of());

    assertThat(run.status()).isEqualTo(2);
    assertThat(run.err()).contains("a command is required (try: gantry-dra-driver serve)");
  }

  @Test
  void withoutANodeNameItRefusesToStart() {
    Run run = run(Map.of("PATH", tmp.toString()), "serve");

    assertThat(run.status()).isEqualTo(2);
    assertThat(run.err()).contains("--node-name is required (or set NODE_NAME)");
  }

  @Test
  void aDiscoveryIntervalUnderOneSecondIsNamed() {
    Run run = run(Map.of("NODE_NAME", "n"), "serve", "--discovery-interval", "0");

    assertThat(run.status()).isEqualTo(2);
    assertThat(run.err()).contains("--discovery-interval must be at least 1 second, got 0");
  }

  @Test
  void withoutNvidiaSmiItExitsThreeNamingTheProblem() throws Exception {
    Path kubeconfig = Kubeconfig.write(tmp, "http://127.0.0.1:1");

    Run run =
        run(
            Map.of("PATH", tmp.toString(), "NODE_NAME", "n"),
            "serve",
            "--kubeconfig",
            kubeconfig.toString(),
            "--plugin-dir",
            tmp.resolve("plugin").toString());

    assertThat(run.status()).isEqualTo(DraDriverWiring.NO_INVENTORY);
    assertThat(run.err()).contains("cannot take the GPU inventory: ").contains("nvidia-smi");
  }
}
