package io.gantry.dradriver.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.gantry.fakekube.FakeKubeServer;
import io.gantry.nodecommon.testing.ChildJvm;
import io.gantry.nodecommon.testing.FakeNvidiaSmi;
import io.gantry.nodecommon.testing.Fixtures;
import io.gantry.nodecommon.testing.Kubeconfig;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 24 item 4 for the DRA driver: {@code gantry-dra-driver serve} in a child JVM (main classes
 * only, so the driver's own logging configuration applies) stops on SIGTERM with exit status 0, no
 * trace, and both of its sockets removed (they used to stay behind, and the JVM exited 143).
 */
class DraDriverSigtermTest {
  @TempDir Path tmp;

  @Test
  void sigtermStopsServingRemovesTheSocketsAndExitsZero() throws Exception {
    Path smiDir = Files.createDirectories(tmp.resolve("bin"));
    FakeNvidiaSmi.replaying(smiDir, Fixtures.HGX_H100).install();
    Path registry = Files.createDirectories(tmp.resolve("plugins_registry"));
    Path pluginDir = tmp.resolve("plugins/gpu.gantry.io");
    try (FakeKubeServer kube = FakeKubeServer.start()) {
      List<String> command =
          ChildJvm.command(
              List.of(),
              DraDriverCli.class,
              List.of(
                  "serve",
                  "--kubeconfig",
                  Kubeconfig.write(tmp, kube.url()).toString(),
                  "--plugin-registry-dir",
                  registry.toString(),
                  "--plugin-dir",
                  pluginDir.toString(),
                  "--cdi-dir",
                  tmp.resolve("cdi").toString()));
      ProcessBuilder pb = new ProcessBuilder(command);
      pb.environment().put("NODE_NAME", "gpu-node-1");
      pb.environment().put("PATH", smiDir + File.pathSeparator + System.getenv("PATH"));
      Path err = tmp.resolve("stderr");
      pb.redirectOutput(tmp.resolve("stdout").toFile()).redirectError(err.toFile());
      Process p = pb.start();
      try {
        Path draSocket = pluginDir.resolve("dra.sock");
        Path registrationSocket = registry.resolve("gpu.gantry.io-reg.sock");
        await()
            .atMost(Duration.ofSeconds(60))
            .until(() -> Files.exists(draSocket) && Files.exists(registrationSocket));

        p.destroy(); // SIGTERM on Linux
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();

        String stderr = Files.readString(err, UTF_8);
        assertThat(p.exitValue()).as(stderr).isZero();
        assertThat(draSocket).doesNotExist();
        assertThat(registrationSocket).doesNotExist();
        assertThat(stderr).doesNotContain("Exception").doesNotContain("\tat ");
      } finally {
        p.destroyForcibly();
      }
    }
  }
}
