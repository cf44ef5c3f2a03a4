package io.gantry.deviceagent.cli;

import static java.util.Objects.requireNonNull;

import io.gantry.deviceagent.AgentExitStatus;
import io.gantry.deviceagent.DiscoveryMode;
import io.gantry.deviceagent.reserve.ReservationPod;
import io.gantry.deviceagent.reserve.ReserveApiAccess;
import io.gantry.deviceagent.reserve.ReservedGpu;
import io.gantry.nodecommon.cli.NvidiaSmiOptions;
import io.gantry.nodecommon.inventory.DiscoveryException;
import io.gantry.nodecommon.kube.ApiClients;
import io.gantry.nodecommon.kube.ClusterAccess;
import io.gantry.nodecommon.nvml.NvmlSession;
import io.gantry.nodecommon.settings.NvidiaSmiSettings;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code gantry-device-agent reserve}: the program of a reservation pod (KAI's resource
 * reservation, kai-reference §1.7). It learns which GPU the kubelet gave the pod ({@link
 * ReservedGpu}), publishes its UUID on its own pod ({@link ReservationPod}) for Gantry's binder,
 * and then holds the GPU by staying alive until it is stopped (SIGTERM), which ends it with status
 * 0.
 */
@Command(
    name = "reserve",
    mixinStandardHelpOptions = true,
    description =
        "Hold one GPU for Gantry's fraction pods: publish its UUID on this pod's annotation"
            + " run.ai/reserve_for_gpu_index, then wait until stopped. Reads POD_NAME and"
            + " POD_NAMESPACE (downward API) and NVIDIA_VISIBLE_DEVICES.",
    exitCodeListHeading = "%nExit status:%n",
    exitCodeList = {
      "0:stopped (SIGTERM) after publishing the GPU",
      "1:no single GPU is visible to the pod",
      "2:invalid command line or environment",
      "3:the answer of nvidia-smi or NVML could not be read",
      "4:the pod's annotation could not be written"
    })
final class ReserveCommand implements Callable<Integer> {
  @Option(
      names = "--kubeconfig",
      paramLabel = "PATH",
      description = "Kubeconfig file for the API server. Default: the pod's service account.")
  Path kubeconfig;

  @CommandLine.Mixin NvidiaSmiOptions smiOptions;

  @CommandLine.Mixin DiscoveryOptions discoveryOptions;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  private final Map<String, String> environment;
  private final CountDownLatch stopped;
  private final NvmlSession.Loader nvmlLoader;
  private final Consumer<CountDownLatch> onStop;

  ReserveCommand(
      Map<String, String> environment,
      CountDownLatch stopped,
      NvmlSession.Loader nvmlLoader,
      Consumer<CountDownLatch> onStop) {
    this.environment = requireNonNull(environment, "environment is null");
    this.stopped = requireNonNull(stopped, "stopped is null");
    this.nvmlLoader = requireNonNull(nvmlLoader, "nvmlLoader is null");
    this.onStop = requireNonNull(onStop, "onStop is null");
  }

  @Override
  public Integer call() throws InterruptedException {
    PrintWriter err = spec.commandLine().getErr();
    String name = environment.getOrDefault("POD_NAME", "");
    String namespace = environment.getOrDefault("POD_NAMESPACE", "");
    if (name.isEmpty() || namespace.isEmpty()) {
      err.println(
          "gantry-device-agent reserve: "
              + (name.isEmpty() ? "POD_NAME" : "POD_NAMESPACE")
              + " is not set (set POD_NAME from metadata.name and POD_NAMESPACE from"
              + " metadata.namespace with the downward API)");
      err.flush();
      return CommandLine.ExitCode.USAGE;
    }
    onStop.accept(stopped);
    NvidiaSmiSettings smi = smiOptions.settings(spec.commandLine());
    DiscoveryMode mode = discoveryOptions.mode(spec.commandLine());
    String uuid;
    try {
      uuid = uuid(smi, mode);
    } catch (DiscoveryException e) {
      err.println(e.getMessage());
      err.flush();
      return AgentExitStatus.of(e);
    }
    try {
      ApiClient client =
          ApiClients.connect(new ClusterAccess(Optional.ofNullable(kubeconfig), Optional.empty()));
      client.setUserAgent(ReserveApiAccess.USER_AGENT);
      new ReservationPod(client, namespace, name).publish(uuid);
    } catch (IOException e) {
      err.println("cannot configure the API client: " + e.getMessage());
      err.flush();
      return AgentExitStatus.CANNOT_START;
    } catch (ApiException e) {
      err.println(
          "cannot annotate pod "
              + namespace
              + "/"
              + name
              + " with its GPU "
              + uuid
              + ": HTTP "
              + e.getCode()
              + " "
              + e.getResponseBody());
      err.flush();
      return AgentExitStatus.CANNOT_START;
    }
    spec.commandLine()
        .getOut()
        .println("reserved GPU " + uuid + " for pod " + namespace + "/" + name);
    spec.commandLine().getOut().flush();
    stopped.await();
    return AgentExitStatus.OK;
  }

  /** The GPU's UUID: from the environment, else from discovery in the container. */
  private String uuid(NvidiaSmiSettings smi, DiscoveryMode mode) throws DiscoveryException {
    String visible = environment.get("NVIDIA_VISIBLE_DEVICES");
    Optional<String> named = ReservedGpu.fromVisibleDevices(visible);
    if (named.isPresent()) {
      return named.get();
    }
    Optional<NvmlSession> nvml = mode.openNvml(nvmlLoader);
    try {
      return ReservedGpu.uuid(visible, DiscoverCommand.source(nvml, smi, environment));
    } finally {
      nvml.ifPresent(NvmlSession::close);
    }
  }
}
