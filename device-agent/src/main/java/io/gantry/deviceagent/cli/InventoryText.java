package io.gantry.deviceagent.cli;

import io.gantry.gpusharing.inventory.GpuDevice;
import io.gantry.gpusharing.inventory.GpuInventory;
import io.gantry.gpusharing.inventory.GpuLink;
import io.gantry.gpusharing.inventory.MigInstance;
import io.gantry.gpusharing.inventory.NvlinkDomain;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The inventory as tables for a person: GPUs, MIG devices, health problems, NVLink domains, links.
 */
final class InventoryText {
  private InventoryText() {}

  static String toText(GpuInventory inventory) {
    StringBuilder out = new StringBuilder();
    int count = inventory.devices().size();
    out.append("NVIDIA driver ")
        .append(inventory.driverVersion())
        .append(inventory.cudaVersion().map(v -> ", CUDA " + v).orElse(""))
        .append(": ")
        .append(count)
        .append(count == 1 ? " GPU" : " GPUs")
        .append("\n\n");

    TextTable gpus =
        new TextTable("GPU", "UUID", "PCI BUS ID", "PRODUCT", "MEMORY", "MIG", "NUMA", "HEALTH");
    for (GpuDevice d : inventory.devices()) {
      gpus.row(
          d.index(),
          d.uuid(),
          d.pciBusId(),
          d.productName(),
          d.memoryMib() + " MiB",
          lower(d.migMode()),
          d.numaNode().isPresent() ? d.numaNode().getAsInt() : "-",
          lower(d.health().status()));
    }
    out.append(gpus.render());

    if (inventory.devices().stream().anyMatch(d -> !d.migInstances().isEmpty())) {
      TextTable migs = new TextTable("GPU", "MIG", "GI", "CI", "PROFILE", "MEMORY", "SMS", "UUID");
      for (GpuDevice d : inventory.devices()) {
        for (MigInstance m : d.migInstances()) {
          migs.row(
              d.index(),
              m.index(),
              m.gpuInstanceId(),
              m.computeInstanceId(),
              m.profile().orElse("-"),
              m.memoryMib() + " MiB",
              m.multiprocessorCount().isPresent() ? m.multiprocessorCount().getAsInt() : "-",
              m.uuid().orElse("-"));
        }
      }
      out.append("\nMIG devices:\n").append(migs.render());
    }

    for (GpuDevice d : inventory.devices()) {
      for (String reason : d.health().reasons()) {
        out.append("\nGPU ").append(d.index()).append(" is unhealthy: ").append(reason);
      }
    }
    if (inventory.devices().stream().anyMatch(d -> !d.health().reasons().isEmpty())) {
      out.append('\n');
    }

    out.append("\nNVLink domains:");
    if (inventory.nvlinkDomains().isEmpty()) {
      out.append(" none\n");
    } else {
      TextTable domains = new TextTable("DOMAIN", "GPUS", "ALL-TO-ALL", "FROM");
      for (NvlinkDomain d : inventory.nvlinkDomains()) {
        domains.row(
            d.id(),
            d.gpuIndices().stream().map(String::valueOf).collect(Collectors.joining(",")),
            d.allToAll() ? "yes" : "no",
            d.sources().stream().map(InventoryText::lower).collect(Collectors.joining(",")));
      }
      out.append('\n').append(domains.render());
    }

    out.append("\nGPU links (nvidia-smi topo -m):");
    if (!inventory.linkMatrixAvailable()) {
      out.append(" not available\n");
    } else if (count < 2) {
      out.append(" none (one GPU)\n");
    } else {
      out.append('\n').append(matrix(inventory));
    }
    return out.toString();
  }

  private static String matrix(GpuInventory inventory) {
    int n = inventory.devices().size();
    String[][] cells = new String[n][n];
    for (int i = 0; i < n; i++) {
      cells[i][i] = "X";
    }
    for (GpuLink l : inventory.gpuLinks()) {
      cells[l.gpuIndexA()][l.gpuIndexB()] = l.label();
      cells[l.gpuIndexB()][l.gpuIndexA()] = l.label();
    }
    String[] header = new String[n + 1];
    header[0] = "";
    for (int i = 0; i < n; i++) {
      header[i + 1] = "GPU" + i;
    }
    TextTable table = new TextTable(header);
    for (int i = 0; i < n; i++) {
      Object[] row = new Object[n + 1];
      row[0] = "GPU" + i;
      for (int j = 0; j < n; j++) {
        row[j + 1] = cells[i][j] == null ? "?" : cells[i][j];
      }
      table.row(row);
    }
    return table.render();
  }

  private static String lower(Enum<?> value) {
    return value.name().toLowerCase(Locale.ROOT);
  }
}
