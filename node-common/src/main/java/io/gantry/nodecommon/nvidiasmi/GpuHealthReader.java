package io.gantry.nodecommon.nvidiasmi;

import io.gantry.gpusharing.inventory.GpuHealth;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Decides a GPU's health from its {@code <gpu>} element of nvidia-smi -q -x. A GPU is unhealthy
 * when any of these holds (elements a driver does not print, or prints as N/A, are skipped):
 *
 * <ul>
 *   <li>{@code gpu_recovery_action} is not {@code None}: the driver asks for a GPU reset, a node
 *       reboot or a drain (drivers from 570 on);
 *   <li>{@code remapped_rows/remapped_row_failure} is {@code Yes}: memory row remapping failed;
 *   <li>{@code fabric/state} is neither {@code Completed} nor N/A: the GPU has not finished
 *       registering with its NVSwitch fabric, and CUDA cannot use it until it has;
 *   <li>{@code fabric/state} is {@code Completed} but {@code fabric/status} is not {@code Success}:
 *       fabric registration failed;
 *   <li>{@code fabric/health/summary} is present and not {@code Healthy}.
 * </ul>
 *
 * Pending row remappings and page retirements are not reasons: the GPU keeps working until its next
 * reset.
 */
final class GpuHealthReader {
  private GpuHealthReader() {}

  static GpuHealth read(XmlFields gpu) {
    List<String> reasons = new ArrayList<>();
    gpu.optional("gpu_recovery_action")
        .filter(a -> !a.equalsIgnoreCase("None"))
        .ifPresent(a -> reasons.add("gpu_recovery_action is " + a));
    gpu.optional("remapped_rows/remapped_row_failure")
        .filter(f -> f.equalsIgnoreCase("Yes"))
        .ifPresent(f -> reasons.add("memory row remapping failed (remapped_row_failure: Yes)"));
    Optional<String> state = gpu.optional("fabric/state");
    if (state.isPresent()) {
      if (!state.get().equalsIgnoreCase("Completed")) {
        reasons.add(
            "NVLink fabric registration is not complete (fabric/state: " + state.get() + ")");
      } else {
        gpu.optional("fabric/status")
            .filter(s -> !s.equalsIgnoreCase("Success"))
            .ifPresent(
                s -> reasons.add("NVLink fabric registration failed (fabric/status: " + s + ")"));
      }
    }
    gpu.optional("fabric/health/summary")
        .filter(s -> !s.equalsIgnoreCase("Healthy"))
        .ifPresent(s -> reasons.add("NVLink fabric health is " + s + " (fabric/health/summary)"));
    return GpuHealth.fromReasons(reasons);
  }
}
