package io.gantry.deviceagent.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gantry.deviceagent.reserve.ReservationPod;
import io.gantry.deviceagent.reserve.ReserveApiAccess;
import io.gantry.fakekube.ApiAccessLog;
import io.gantry.fakekube.FakeKubeServer;
import io.gantry.fakekube.Json;
import io.gantry.fakekube.ResourceKinds;
import io.gantry.nodecommon.nvml.JnaNvml;
import io.gantry.nodecommon.nvml.NvmlSession;
import io.gantry.nodecommon.testing.FakeNvidiaSmi;
import io.gantry.nodecommon.testing.Fixtures;
import io.gantry.nodecommon.testing.Kubeconfig;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code gantry-device-agent reserve} against the fake API server and a fake nvidia-smi: it
 * publishes the UUID of the GPU the pod got on its own pod, by the only call its RBAC grants, and
 * waits until stopped; in a child JVM SIGTERM ends it with status 0.
 */
class ReserveCommandTest {
  private static final String A10G_UUID = "GPU-9a9a6c50-2a47-2f51-a902-b82c3b127e94";

  @TempDir Path tmp;

  private record Run(int status, String out, String err) {}

  /** NVML as on a machine without the driver's library (discovery falls back to nvidia-smi). */
  private final NvmlSession.Loader nvml = () -> JnaNvml.load("libnvidia-ml-absent.so.1");

  private Run run(Map<String, String> env, CountDownLatch stopped, String... args) {
    CommandLine cli = DeviceAgentCli.commandLine(env, stopped, nvml, java.time.Clock.systemUTC());
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cli.setOut(new PrintWriter(out));
    cli.setErr(new PrintWriter(err));
    int status = cli.execute(args);
    return new Run(status, out.toString(), err.toString());
  }

  private static void reservationPod(FakeKubeServer kube) {
    ObjectNode pod = Json.object();
    pod.put("apiVersion", "v1").put("kind", "Pod");
    pod.putObject("metadata")
        .put("name", "gpu-reservation-0123456789abcdef")
        .put("namespace", "gantry-resource-reservation");
    pod.putObject("spec")
        .putArray("containers")
        .addObject()
        .put("name", "reserve")
        .put("image", "r");
    kube.store().create(ResourceKinds.PODS, "gantry-resource-reservation", pod);
  }

  private static String published(FakeKubeServer kube) {
    return kube.store()
        .get(ResourceKinds.PODS, "gantry-resource-reservation", "gpu-reservation-0123456789abcdef")
        .orElseThrow()
        .at("/metadata/annotations")
        .path(ReservationPod.UUID_ANNOTATION)
        .asText("");
  }

  private Map<String, String> env(Path path, String visibleDevices) {
    Map<String, String> env = new HashMap<>();
    env.put("PATH", path.toString());
    env.put("POD_NAME", "gpu-reservation-0123456789abcdef");
    env.put("POD_NAMESPACE", "gantry-resource-reservation");
    if (visibleDevices != null) {
      env.put("NVIDIA_VISIBLE_DEVICES", visibleDevices);
    }
    return env;
  }

  private CompletableFuture<Run> reserveInBackground(
      FakeKubeServer kube, Map<String, String> env, CountDownLatch stopped) throws Exception {
    String kubeconfig = Kubeconfig.write(tmp, kube.url()).toString();
    return CompletableFuture.supplyAsync(
        () -> run(env, stopped, "reserve", "--kubeconfig", kubeconfig));
  }

  @Test
  void theUuidTheRuntimeNamesIsPublishedOnTheOwnPodUntilStopped() throws Exception {
    try (FakeKubeServer kube = FakeKubeServer.start()) {
      reservationPod(kube);
      CountDownLatch stopped = new CountDownLatch(1);
      CompletableFuture<Run> reserving =
          reserveInBackground(kube, env(tmp, "GPU-00000003-0000-0000-0000-000000000003"), stopped);

      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> published(kube).equals("GPU-00000003-0000-0000-0000-000000000003"));
      assertThat(reserving).isNotDone();
      stopped.countDown();
      Run run = reserving.get(30, TimeUnit.SECONDS);
      assertThat(run.status()).as(run.err()).isZero();
      assertThat(run.out())
          .isEqualTo(
              "reserved GPU GPU-00000003-0000-0000-0000-000000000003 for pod"
                  + " gantry-resource-reservation/gpu-reservation-0123456789abcdef\n");
      assertThatEveryCallIsGranted(kube);
    }
  }

  @Test
  void withoutTheEnvironmentTheOneGpuNvidiaSmiSeesIsPublished() throws Exception {
    Path smiDir = Files.createDirectories(tmp.resolve("bin"));
    FakeNvidiaSmi.replaying(smiDir, Fixtures.A10G).install();
    try (FakeKubeServer kube = FakeKubeServer.start()) {
      reservationPod(kube);
      CountDownLatch stopped = new CountDownLatch(1);
      CompletableFuture<Run> reserving = reserveInBackground(kube, env(smiDir, "all"), stopped);

      await().atMost(Duration.ofSeconds(30)).until(() -> published(kube).equals(A10G_UUID));
      stopped.countDown();
      assertThat(reserving.get(30, TimeUnit.SECONDS).status()).isZero();
      assertThatEveryCallIsGranted(kube);
    }
  }

  @Test
  void seeingMoreThanOneGpuExitsOneAndPublishesNothing() throws Exception {
    Path smiDir = Files.createDirectories(tmp.resolve("bin"));
    FakeNvidiaSmi.replaying(smiDir, Fixtures.HGX_H100).install();
    try (FakeKubeServer kube = FakeKubeServer.start()) {
      reservationPod(kube);
      Run run =
          run(
              env(smiDir, null),
              new CountDownLatch(1),
              "reserve",
              "--kubeconfig",
              Kubeconfig.write(tmp, kube.url()).toString());

      assertThat(run.status()).isEqualTo(1);
      assertThat(run.err())
          .isEqualTo(
              "a reservation pod must see exactly one GPU, this one sees 8"
                  + " (NVIDIA_VISIBLE_DEVICES is not set)\n");
      assertThat(published(kube)).isEmpty();
    }
  }

  @Test
  void withoutItsPodNameItExitsTwoInOneLine() {
    Map<String, String> env = env(tmp, A10G_UUID);
    env.remove("POD_NAME");
    Run run = run(env, new CountDownLatch(1), "reserve");

    assertThat(run.status()).isEqualTo(2);
    assertThat(run.err())
        .isEqualTo(
            "gantry-device-agent reserve: POD_NAME is not set (set POD_NAME from metadata.name and"
                + " POD_NAMESPACE from metadata.namespace with the downward API)\n");
  }

  @Test
  void inItsOwnProcessSigtermEndsItWithStatusZero() throws Exception {
    try (FakeKubeServer kube = FakeKubeServer.start()) {
      reservationPod(kube);
      List<String> args = new ArrayList<>();
      args.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      args.add("-cp");
      args.add(System.getProperty("java.class.path"));
      args.add(DeviceAgentCli.class.getName());
      args.addAll(List.of("reserve", "--kubeconfig", Kubeconfig.write(tmp, kube.url()).toString()));
      ProcessBuilder pb = new ProcessBuilder(args);
      pb.environment().putAll(env(tmp, A10G_UUID));
      Path err = tmp.resolve("stderr");
      pb.redirectOutput(tmp.resolve("stdout").toFile()).redirectError(err.toFile());
      Process p = pb.start();
      try {
        await().atMost(Duration.ofSeconds(60)).until(() -> published(kube).equals(A10G_UUID));
        p.destroy(); // SIGTERM
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("stops within 30 s").isTrue();
        assertThat(p.exitValue()).as(Files.readString(err, UTF_8)).isZero();
      } finally {
        p.destroyForcibly();
      }
    }
  }

  /** The reservation pod's calls are all in {@link ReserveApiAccess#RULES}: patching pods. */
  private static void assertThatEveryCallIsGranted(FakeKubeServer kube) {
    List<ApiAccessLog.Access> calls =
        List.copyOf(kube.accesses().byUserAgentPrefix(ReserveApiAccess.USER_AGENT));
    assertThat(calls).isNotEmpty();
    assertThat(calls)
        .allMatch(
            a ->
                ReserveApiAccess.RULES.stream()
                    .anyMatch(r -> r.allows(a.group(), a.resource(), a.verb())));
  }
}
