package io.gantry.deviceagent.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gantry.deviceagent.publish.InventoryAnnotation;
import io.gantry.deviceagent.testing.FakeNvidiaSmi;
import io.gantry.deviceagent.testing.Fixtures;
import io.gantry.fakekube.FakeDeviceManager;
import io.gantry.fakekube.FakeKubeServer;
import io.gantry.fakekube.FakeKubelet;
import io.gantry.fakekube.FakeNode;
import io.gantry.fakekube.ResourceKinds;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code gantry-device-agent serve} in-process: against the fake API server and the fake kubelet,
 * with a fake nvidia-smi on PATH.
 */
class ServeCommandTest {
  @TempDir Path tmp;

  private record Run(int status, String err) {}

  private Run run(Map<String, String> env, CountDownLatch stopped, String... args) {
    CommandLine cli = DeviceAgentCli.commandLine(env, stopped);
    StringWriter err = new StringWriter();
    cli.setErr(new PrintWriter(err));
    cli.setOut(new PrintWriter(new StringWriter()));
    int status = cli.execute(args);
    return new Run(status, err.toString());
  }

  private Path kubeconfig(FakeKubeServer kube) throws Exception {
    return Files.writeString(
        tmp.resolve("kubeconfig"),
        """
        apiVersion: v1
        kind: Config
        clusters:
        - name: fake
          cluster:
            server: %s
        users:
        - name: test
          user: {}
        contexts:
        - name: fake
          context:
            cluster: fake
            user: test
        current-context: fake
        """
            .formatted(kube.url()));
  }

  @Test
  void servesTheKubeletAndPublishesTheInventoryUntilStopped() throws Exception {
    Path smiDir = Files.createDirectories(tmp.resolve("bin"));
    FakeNvidiaSmi.replaying(smiDir, Fixtures.HGX_H100).install();
    Path pluginDir = Files.createDirectories(tmp.resolve("device-plugins"));
    try (FakeKubeServer kube = FakeKubeServer.start();
        FakeKubelet kubelet = FakeKubelet.start(kube);
        FakeDeviceManager devices = FakeDeviceManager.start(pluginDir)) {
      kubelet.registerNode(FakeNode.of("gpu-0", Map.of("cpu", "64")));
      Path kubeconfig = kubeconfig(kube);
      CountDownLatch stopped = new CountDownLatch(1);

      CompletableFuture<Run> serving =
          CompletableFuture.supplyAsync(
              () ->
                  run(
                      Map.of("PATH", smiDir.toString(), "NODE_NAME", "gpu-0"),
                      stopped,
                      "serve",
                      "--kubeconfig",
                      kubeconfig.toString(),
                      "--device-plugin-dir",
                      pluginDir.toString(),
                      "--discovery-interval",
                      "1"));

      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () -> {
                assertThat(devices.devices("nvidia.com/gpu")).hasSize(8);
                String annotation =
                    kube.store()
                        .get(ResourceKinds.NODES, "", "gpu-0")
                        .orElseThrow()
                        .path("metadata")
                        .path("annotations")
                        .path(InventoryAnnotation.KEY)
                        .asText();
                assertThat(InventoryAnnotation.parse(annotation).inventory().devices()).hasSize(8);
              });
      stopped.countDown();
      Run run = serving.get(30, TimeUnit.SECONDS);
      assertThat(run.status()).as(run.err()).isZero();
    }
  }

  @Test
  void withoutANodeNameItRefusesToStart() {
    Run run = run(Map.of("PATH", tmp.toString()), new CountDownLatch(0), "serve");

    assertThat(run.status()).isEqualTo(2);
    assertThat(run.err()).contains("--node-name is required (or set NODE_NAME)");
  }

  @Test
  void aMissingDevicePluginDirectoryIsNamed() {
    Run run =
        run(
            Map.of("PATH", tmp.toString(), "NODE_NAME", "n"),
            new CountDownLatch(0),
            "serve",
            "--device-plugin-dir",
            tmp.resolve("nope").toString());

    assertThat(run.status()).isEqualTo(2);
    assertThat(run.err())
        .contains("--device-plugin-dir " + tmp.resolve("nope") + " is not a directory");
  }

  @Test
  void onAMachineWithoutNvidiaSmiItExitsOne() {
    Run run =
        run(
            Map.of("PATH", tmp.toString(), "NODE_NAME", "n"),
            new CountDownLatch(0),
            "serve",
            "--device-plugin-dir",
            tmp.toString());

    assertThat(run.status()).isEqualTo(1);
    assertThat(run.err()).contains("no NVIDIA GPU found: nvidia-smi is not on PATH");
  }
}
