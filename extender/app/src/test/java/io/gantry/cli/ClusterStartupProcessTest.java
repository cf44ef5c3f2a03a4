package io.gantry.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gantry.fakekube.FakeKubeServer;
import io.gantry.scheduler.kube.crd.KaiQueue;
import io.gantry.scheduler.kube.crd.KaiTopology;
import io.gantry.scheduler.kube.informers.DraInformers;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 24 items 3 and 4, as a user meets them: {@code gantry scheduler}, {@code extender} and
 * {@code crds apply} in a child JVM against the fake API server, an address where nothing listens,
 * or a server without some APIs; SIGTERM stops them with exit status 0 and no trace.
 */
class ClusterStartupProcessTest {
  private static final Duration START = Duration.ofSeconds(60);
  private static final Pattern OPS_PORT = Pattern.compile("metrics on :(\\d+)");
  private static final Pattern EXTENDER_PORT = Pattern.compile("on :(\\d+) \\(http\\)");

  @TempDir Path dir;

  private FakeKubeServer kube;
  private final List<GantryProcess> processes = new ArrayList<>();

  @BeforeEach
  void startKube() {
    kube = FakeKubeServer.start();
  }

  @AfterEach
  void stopAll() {
    processes.forEach(GantryProcess::close);
    kube.close();
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"scheduler --http-port 0", "extender --port 0", "crds apply"})
  void anAddressWhereNothingListensIsNamedWithTheCauseInOneLine(String command) throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    Path config = kubeconfig("http://127.0.0.1:" + port);
    List<String> args = new ArrayList<>(List.of(command.split(" ", -1)));
    args.addAll(List.of("--kubeconfig", config.toString(), "--startup-timeout", "2s"));

    GantryProcess p = start(args.toArray(String[]::new));
    int status = p.awaitExit(START);

    assertThat(status).as(p.stderr()).isEqualTo(2);
    assertThat(p.stderrLines()).hasSize(1);
    assertThat(p.stderrLines().get(0))
        .startsWith(
            "error: cannot reach the API server http://127.0.0.1:"
                + port
                + " within 2s: connection refused");
    assertThat(p.stdout()).isEmpty();
  }

  @Test
  void aServerWithoutDraOrTopologiesIsToldOnceAndTheSchedulerStopsCleanlyOnSigterm()
      throws Exception {
    for (String plural :
        List.of("deviceclasses", "resourceclaims", "resourceclaimtemplates", "resourceslices")) {
      kube.registry().withhold(DraInformers.GROUP, DraInformers.VERSION, plural);
    }
    kube.registry().withhold(KaiTopology.GROUP, KaiTopology.VERSION, KaiTopology.PLURAL);

    GantryProcess p = start("scheduler", "--kubeconfig", kubeconfig(kube.url()).toString());
    String port = p.awaitStdout(OPS_PORT, START);
    await()
        .atMost(START)
        .until(() -> GantryProcess.get("http://127.0.0.1:" + port + "/readyz") == 200);
    Thread.sleep(3000);

    assertThat(p.stderrLines())
        .filteredOn(l -> l.contains("does not serve resource.k8s.io/v1"))
        .singleElement()
        .asString()
        .contains("resourceclaimtemplates")
        .contains("DRA is off");
    assertThat(p.stderrLines())
        .filteredOn(l -> l.contains("does not serve kai.scheduler/v1alpha1 topologies"))
        .hasSize(1);
    assertThat(p.stderrLines()).filteredOn(l -> l.contains("cannot list and watch")).isEmpty();

    assertThat(p.terminate(START)).as(p.stderr()).isZero();
    assertThat(p.stderr()).doesNotContain("Exception").doesNotContain("\tat ");
  }

  /**
   * Issue 24: every start printed three WARN lines from client-java's reflector, one per informer
   * of a Gantry CRD type ("setKind or setApiVersion method not found").
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"scheduler", "extender --port 0"})
  void aNormalStartPrintsNoWarning(String command) throws Exception {
    List<String> args = new ArrayList<>(List.of(command.split(" ", -1)));
    args.addAll(List.of("--kubeconfig", kubeconfig(kube.url()).toString()));
    GantryProcess p = start(args.toArray(String[]::new));
    if (command.equals("scheduler")) {
      String port = p.awaitStdout(OPS_PORT, START);
      await()
          .atMost(START)
          .until(() -> GantryProcess.get("http://127.0.0.1:" + port + "/readyz") == 200);
    } else {
      p.awaitStdout(EXTENDER_PORT, START);
    }
    // the informers list (and would warn) once they start, which the caches' sync has passed
    Thread.sleep(3000);

    assertThat(p.stderrLines()).filteredOn(l -> l.contains(" WARN ")).isEmpty();
    assertThat(p.terminate(START)).as(p.stderr()).isZero();
  }

  @Test
  void aMissingRequiredCrdKeepsReadyzFalseWithOneWarningNotAFlood() throws Exception {
    kube.registry().withhold(KaiQueue.GROUP, KaiQueue.VERSION, KaiQueue.PLURAL);

    GantryProcess p = start("scheduler", "--kubeconfig", kubeconfig(kube.url()).toString());
    String port = p.awaitStdout(OPS_PORT, START);
    String readyz = "http://127.0.0.1:" + port + "/readyz";
    await()
        .atMost(START)
        .until(() -> p.stderr().contains("cannot list and watch " + KaiQueue.PLURAL));
    Thread.sleep(8000);

    assertThat(GantryProcess.get(readyz)).isEqualTo(503);
    assertThat(GantryProcess.get("http://127.0.0.1:" + port + "/healthz")).isEqualTo(200);
    assertThat(p.stderrLines())
        .filteredOn(l -> l.contains("cannot list and watch"))
        .singleElement()
        .asString()
        .contains(KaiQueue.PLURAL + "." + KaiQueue.GROUP + " on " + kube.url() + ": HTTP 404");
    assertThat(p.stderr()).doesNotContain("\tat ");

    assertThat(p.terminate(START)).as(p.stderr()).isZero();
  }

  @Test
  void aServerThatGoesAwayGetsOneWarningPerResource() throws Exception {
    GantryProcess p =
        start(
            "scheduler",
            "--kubeconfig",
            kubeconfig(kube.url()).toString(),
            "--config",
            noLeaderElection().toString());
    String port = p.awaitStdout(OPS_PORT, START);
    await()
        .atMost(START)
        .until(() -> GantryProcess.get("http://127.0.0.1:" + port + "/readyz") == 200);

    kube.close();
    Thread.sleep(10_000);

    Map<String, Integer> warningsByResource = new TreeMap<>();
    for (String line : p.stderrLines()) {
      int at = line.indexOf("cannot list and watch ");
      if (at >= 0) {
        String resource = line.substring(at).split(" ", -1)[4];
        warningsByResource.merge(resource, 1, Integer::sum);
      }
    }
    assertThat(warningsByResource).isNotEmpty();
    assertThat(warningsByResource.values()).allMatch(n -> n == 1);
    assertThat(p.stderrLines()).as(p.stderr()).hasSizeLessThan(40);
    assertThat(p.stderr()).doesNotContain("\tat ");

    assertThat(p.terminate(START)).as(p.stderr()).isZero();
  }

  @Test
  void theExtenderStopsCleanlyOnSigterm() throws Exception {
    GantryProcess p =
        start("extender", "--port", "0", "--kubeconfig", kubeconfig(kube.url()).toString());
    p.awaitStdout(EXTENDER_PORT, START);
    Thread.sleep(2000);

    assertThat(p.terminate(START)).as(p.stderr()).isZero();
    assertThat(p.stderr()).doesNotContain("Exception").doesNotContain("\tat ");
  }

  private GantryProcess start(String... args) throws IOException {
    GantryProcess p = GantryProcess.start(dir, args);
    processes.add(p);
    return p;
  }

  private Path kubeconfig(String server) throws IOException {
    return Files.writeString(
        dir.resolve("kubeconfig"),
        """
        apiVersion: v1
        kind: Config
        clusters: [{name: fake, cluster: {server: "%s"}}]
        users: [{name: test, user: {}}]
        contexts: [{name: fake, context: {cluster: fake, user: test}}]
        current-context: fake
        """
            .formatted(server));
  }

  private Path noLeaderElection() throws IOException {
    return Files.writeString(dir.resolve("scheduler.yaml"), "leaderElection:\n  enabled: false\n");
  }
}
