package io.gantry.deviceagent.cli;

import static java.util.Objects.requireNonNull;

import io.gantry.deviceagent.discovery.GpuDiscovery;
import io.gantry.deviceagent.inventory.GpuInventory;
import io.gantry.deviceagent.nvidiasmi.NvidiaSmi;
import io.gantry.deviceagent.nvidiasmi.NvidiaSmiException;
import java.io.PrintWriter;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code gantry-device-agent discover}: prints the GPU inventory of the machine it runs on. Exit
 * status: 0 printed, 1 no usable NVIDIA GPU, 2 invalid command line, 3 nvidia-smi's output could
 * not be read or it timed out.
 */
@Command(
    name = "discover",
    mixinStandardHelpOptions = true,
    description = "Print this machine's NVIDIA GPUs, MIG devices, NUMA nodes and NVLink domains.",
    exitCodeListHeading = "%nExit status:%n",
    exitCodeList = {
      "0:the inventory was printed",
      "1:no usable NVIDIA GPU (nvidia-smi is missing, fails, or reports no device)",
      "2:invalid command line",
      "3:nvidia-smi's output could not be read, or it did not finish in time"
    })
final class DiscoverCommand implements Callable<Integer> {
  static final int OK = 0;
  static final int NO_GPU = 1;
  static final int UNREADABLE = 3;

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

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  private final Map<String, String> environment;

  DiscoverCommand(Map<String, String> environment) {
    this.environment = requireNonNull(environment, "environment is null");
  }

  @Override
  public Integer call() {
    smiOptions.validate(spec.commandLine());
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    try {
      NvidiaSmi smi = smiOptions.locate(environment.get("PATH"));
      GpuInventory inventory = new GpuDiscovery(smi).discover();
      out.print(
          output == Output.json
              ? InventoryJson.toJson(inventory)
              : InventoryText.toText(inventory));
      out.flush();
      return OK;
    } catch (NvidiaSmiException e) {
      err.println(e.getMessage());
      err.flush();
      return exitStatus(e.reason());
    }
  }

  static int exitStatus(NvidiaSmiException.Reason reason) {
    return switch (reason) {
      case NOT_FOUND, FAILED, NO_DEVICES -> NO_GPU;
      case TIMED_OUT, UNPARSEABLE -> UNREADABLE;
    };
  }
}
