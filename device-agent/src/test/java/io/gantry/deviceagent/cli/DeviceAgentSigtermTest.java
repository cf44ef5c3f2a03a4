package io.gantry.deviceagent.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gantry.fakekube.FakeKubeServer;
import io.gantry.fakekube.FakeKubelet;
import io.gantry.fakekube.FakeNode;
import io.gantry.nodecommon.testing.ChildJvm;
import io.gantry.nodecommon.testing.FakeNvidiaSmi;
import io.gantry.nodecommon.testing.Fixtures;
import io.gantry.nodecommon.testing.Kubeconfig;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 24 item 4 for the device agent: {@code gantry-device-agent serve} in a child JVM (main
 * classes only, so the agent's own logging configuration applies) stops on SIGTERM with exit status
 * 0 and no trace, as the scheduler, the extender and the DRA driver do (it used to exit 143).
 */
class DeviceAgentSigtermTest {
  @TempDir Path tmp;

  @Test
  void sigtermStopsServingAndExitsZero() throws Exception {
    Path smiDir = Files.createDirectories(tmp.resolve("bin"));
    FakeNvidiaSmi.replaying(smiDir, Fixtures.HGX_H100).install();
    Path socket = tmp.resolve("gantry").resolve("node-agent.sock");
    try (FakeKubeServer kube = FakeKubeServer.start();
        FakeKubelet kubelet = FakeKubelet.start(kube)) {
      kubelet.registerNode(FakeNode.of("gpu-0", Map.of("cpu", "64")));
      ProcessBuilder pb =
          new ProcessBuilder(
              ChildJvm.command(
                  List.of(),
                  DeviceAgentCli.class,
                  List.of(
                      "serve",
                      "--kubeconfig",
                      Kubeconfig.write(tmp, kube.url()).toString(),
                      "--device-plugin-dir",
                      Files.createDirectories(tmp.resolve("device-plugins")).toString(),
                      "--node-agent-socket",
                      socket.toString())));
      pb.environment().put("NODE_NAME", "gpu-0");
      pb.environment().put("PATH", smiDir + File.pathSeparator + System.getenv("PATH"));
      Path err = tmp.resolve("stderr");
      pb.redirectOutput(tmp.resolve("stdout").toFile()).redirectError(err.toFile());
      Process p = pb.start();
      try {
        await().atMost(Duration.ofSeconds(60)).until(() -> Files.exists(socket));

        p.destroy(); // SIGTERM on Linux
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();

        String stderr = Files.readString(err, UTF_8);
        assertThat(p.exitValue()).as(stderr).isZero();
        assertThat(stderr).doesNotContain("Exception").doesNotContain("\tat ");
      } finally {
        p.destroyForcibly();
      }
    }
  }
}
