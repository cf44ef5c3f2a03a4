package io.gantry.deviceagent.cli;

import static java.util.Objects.requireNonNull;

import io.gantry.deviceagent.AgentExitStatus;
import io.gantry.deviceagent.DiscoveryMode;
import io.gantry.gpusharing.inventory.GpuInventory;
import io.gantry.nodecommon.cli.NvidiaSmiOptions;
import io.gantry.nodecommon.discovery.GpuDiscovery;
import io.gantry.nodecommon.discovery.InventorySource;
import io.gantry.nodecommon.inventory.DiscoveryException;
import io.gantry.nodecommon.nvml.NvmlDiscovery;
import io.gantry.nodecommon.nvml.NvmlSession;
import io.gantry.nodecommon.settings.NvidiaSmiSettings;
import java.io.PrintWriter;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code gantry-device-agent discover}: prints the GPU inventory of the machine it runs on. Exit
 * status: 0 printed, 1 no usable NVIDIA GPU, 2 invalid command line, 3 nvidia-smi's or NVML's
 * answer could not be read or nvidia-smi timed out.
 */
@Command(
    name = "discover",
    mixinStandardHelpOptions = true,
    description = "Print this machine's NVIDIA GPUs, MIG devices, NUMA nodes and NVLink domains.",
    exitCodeListHeading = "%nExit status:%n",
    exitCodeList = {
      "0:the inventory was printed",
      "1:no usable NVIDIA GPU (nvidia-smi or NVML is missing, fails, or reports no device)",
      "2:invalid command line",
      "3:the answer of nvidia-smi or NVML could not be read, or nvidia-smi did not finish in time"
    })
final class DiscoverCommand implements Callable<Integer> {
  enum Output {
    text,
    json
  }

  @Option(
      names = "--output",
      paramLabel = "FORMAT",
      defaultValue = "text",
      description = "text (tables for people) or json. Default: ${DEFAULT-VALUE}.")
  Output output;

  @CommandLine.Mixin NvidiaSmiOptions smiOptions;

  @CommandLine.Mixin DiscoveryOptions discoveryOptions;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  private final Map<String, String> environment;
  private final NvmlSession.Loader nvmlLoader;

  DiscoverCommand(Map<String, String> environment, NvmlSession.Loader nvmlLoader) {
    this.environment = requireNonNull(environment, "environment is null");
    this.nvmlLoader = requireNonNull(nvmlLoader, "nvmlLoader is null");
  }

  @Override
  public Integer call() {
    NvidiaSmiSettings smi = smiOptions.settings(spec.commandLine());
    DiscoveryMode mode = discoveryOptions.mode(spec.commandLine());
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    try {
      GpuInventory inventory;
      Optional<NvmlSession> nvml = mode.openNvml(nvmlLoader);
      try {
        InventorySource source = source(nvml, smi, environment);
        inventory = source.discover();
      } finally {
        nvml.ifPresent(NvmlSession::close);
      }
      out.print(
          output == Output.json
              ? InventoryJson.toJson(inventory)
              : InventoryText.toText(inventory));
      out.flush();
      return AgentExitStatus.OK;
    } catch (DiscoveryException e) {
      err.println(e.getMessage());
      err.flush();
      return AgentExitStatus.of(e);
    }
  }

  /** NVML's inventory when a session is open, else nvidia-smi's, looked up on PATH. */
  static InventorySource source(
      Optional<NvmlSession> nvml, NvidiaSmiSettings smi, Map<String, String> environment)
      throws DiscoveryException {
    return nvml.isPresent()
        ? new NvmlDiscovery(nvml.get().nvml())
        : new GpuDiscovery(smi.locate(environment.get("PATH")));
  }
}
