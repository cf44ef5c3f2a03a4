package io.gantry.cli;

import static io.gantry.scheduler.kube.TestObjects.SCHEDULER;
import static io.gantry.scheduler.kube.TestObjects.gpuNode;
import static io.gantry.scheduler.kube.TestObjects.inGroup;
import static io.gantry.scheduler.kube.TestObjects.onNode;
import static io.gantry.scheduler.kube.TestObjects.pod;
import static io.gantry.scheduler.kube.TestObjects.podGroup;
import static io.gantry.scheduler.kube.TestObjects.priorityClass;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gantry.fakekube.FakeKubeServer;
import io.gantry.fakekube.FakeKubelet;
import io.gantry.kubemodel.config.SchedulerFileSpec;
import io.gantry.kubemodel.scenario.ScenarioWriter;
import io.gantry.scheduler.kube.KubeClients;
import io.gantry.scheduler.kube.LiveCluster;
import io.gantry.scheduler.kube.TestObjects;
import io.gantry.scheduler.kube.config.SchedulerConfigFile;
import io.gantry.scheduler.kube.config.SchedulerSettings;
import io.gantry.scheduler.sim.ScenarioRun;
import io.gantry.scheduler.sim.report.JsonReport;
import io.gantry.scheduler.sim.spec.ScenarioLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.OptionalInt;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gantry snapshot export} against the fake API server, read back by {@code gantry simulate}:
 * the zip's simulation makes the same decisions as the live cluster state the scheduler's caches
 * hold (what {@code /snapshot} writes as a scenario).
 */
class SnapshotExportTest {
  private static final Duration WAIT = Duration.ofSeconds(20);

  @TempDir Path dir;

  private final FakeKubeServer kube = FakeKubeServer.start();
  private final FakeKubelet kubelet = FakeKubelet.start(kube);

  @AfterEach
  void stop() {
    kubelet.close();
    kube.close();
  }

  @Test
  void anExportedSnapshotSimulatesAsTheLiveClusterState() throws Exception {
    kubelet.registerNode(gpuNode("node-a", 4));
    kubelet.registerNode(gpuNode("node-b", 4));
    TestObjects.defaultQueues(kube);
    TestObjects.create(kube, priorityClass("train", 50));
    TestObjects.create(kube, podGroup("team", "running", "default-queue", 1));
    TestObjects.create(
        kube, inGroup(onNode(pod("team", "r-0", SCHEDULER, "1", 2), "node-a"), "running"));
    TestObjects.create(kube, onNode(pod("team", "web", "default-scheduler", "1", 1), "node-b"));
    TestObjects.create(kube, podGroup("team", "gang", "default-queue", 2));
    for (int i = 0; i < 2; i++) {
      TestObjects.create(kube, inGroup(pod("team", "g-" + i, SCHEDULER, "1", 2), "gang"));
    }
    TestObjects.create(kube, podGroup("team", "big", "default-queue", 1));
    TestObjects.create(kube, inGroup(pod("team", "huge", SCHEDULER, "1", 8), "big"));
    Path zip = dir.resolve("out.zip");

    CliRunner export =
        CliRunner.run(
            "snapshot", "export", "--kubeconfig", kubeconfig().toString(), "-f", zip.toString());
    CliRunner simulated = CliRunner.run("simulate", zip.toString(), "--output", "json");

    assertThat(export.err()).isEmpty();
    assertThat(export.exitCode()).isZero();
    assertThat(export.out()).isEqualTo("wrote " + zip + "\n");
    assertThat(simulated.exitCode()).as(simulated.err()).isZero();
    assertThat(simulated.out().trim()).isEqualTo(liveStateSimulated());
    // the decisions themselves: the running pod stays, the gang fits beside it, the 8-GPU pod waits
    assertThat(simulated.out())
        .contains("\"task\":\"r-0\",\"status\":\"Running\",\"node\":\"node-a\"")
        .contains("\"task\":\"g-0\",\"status\":\"Binding\"")
        .contains("\"task\":\"huge\",\"status\":\"Pending\"");
  }

  /** The live caches' snapshot written as {@code /snapshot} writes it, simulated as JSON. */
  private String liveStateSimulated() throws Exception {
    SchedulerSettings settings =
        SchedulerConfigFile.settings(SchedulerFileSpec.defaults(), "test", "default");
    try (LiveCluster live =
        LiveCluster.start(KubeClients.forUrl(kube.url()), settings, Clock.systemUTC())) {
      await().atMost(WAIT).until(live::ready);
      String scenario =
          ScenarioWriter.write("snapshot", "live", live.snapshot(), settings.engine());
      return JsonReport.toJson(
          ScenarioRun.of(
                  dir.resolve("live.yaml"),
                  ScenarioLoader.parse("live.yaml", scenario),
                  OptionalInt.empty())
              .result());
    }
  }

  private Path kubeconfig() throws IOException {
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
            .formatted(kube.url()));
  }
}
