package io.gantry.nodecommon.nvml;

import io.gantry.gpusharing.inventory.GpuHealth;
import io.gantry.nodecommon.nvml.Nvml.DeviceHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A GPU's health from NVML, by the rules nvidia-smi's path applies to {@code -q -x} and with the
 * same reason sentences: unhealthy when the recovery action (field
 * NVML_FI_DEV_GET_GPU_RECOVERY_ACTION) is not NONE, row remapping failed, fabric registration is
 * not complete or failed, or the fabric health summary is not HEALTHY. Values a GPU does not
 * support are skipped.
 */
final class NvmlHealth {
  static final int FABRIC_STATE_NOT_SUPPORTED = 0;
  static final int FABRIC_STATE_COMPLETED = 3;
  private static final int HEALTH_SUMMARY_NOT_SUPPORTED = 0;
  private static final int HEALTH_SUMMARY_HEALTHY = 1;

  private NvmlHealth() {}

  static GpuHealth of(Nvml nvml, DeviceHandle device) throws NvmlException {
    List<String> reasons = new ArrayList<>();
    Optional<Long> action =
        NvmlCalls.optional(
            () -> nvml.deviceFieldValueUnsigned(device, Nvml.FIELD_GPU_RECOVERY_ACTION));
    if (action.isPresent() && action.get() != 0) {
      reasons.add("gpu_recovery_action is " + recoveryAction(action.get()));
    }
    Optional<Nvml.RemappedRows> rows = NvmlCalls.optional(() -> nvml.deviceGetRemappedRows(device));
    if (rows.isPresent() && rows.get().failed()) {
      reasons.add("memory row remapping failed (remapped_row_failure: Yes)");
    }
    Optional<Nvml.FabricInfo> fabric =
        NvmlCalls.optional(() -> nvml.deviceGetGpuFabricInfo(device));
    if (fabric.isPresent() && fabric.get().state() != FABRIC_STATE_NOT_SUPPORTED) {
      Nvml.FabricInfo f = fabric.get();
      if (f.state() != FABRIC_STATE_COMPLETED) {
        reasons.add(
            "NVLink fabric registration is not complete (fabric/state: "
                + fabricState(f.state())
                + ")");
      } else if (f.status() != 0) {
        reasons.add(
            "NVLink fabric registration failed (fabric/status: "
                + nvml.errorString(f.status())
                + ")");
      }
      if (f.healthSummary() != HEALTH_SUMMARY_NOT_SUPPORTED
          && f.healthSummary() != HEALTH_SUMMARY_HEALTHY) {
        reasons.add(
            "NVLink fabric health is "
                + healthSummary(f.healthSummary())
                + " (fabric/health/summary)");
      }
    }
    return GpuHealth.fromReasons(reasons);
  }

  /** nvmlDeviceGpuRecoveryAction_t as nvidia-smi prints it. */
  static String recoveryAction(long action) {
    return switch ((int) action) {
      case 1 -> "Reset";
      case 2 -> "Reboot";
      case 3 -> "Drain P2P";
      case 4 -> "Drain and Reset";
      default -> "unknown action " + action;
    };
  }

  /** NVML_GPU_FABRIC_STATE_* as nvidia-smi prints it. */
  static String fabricState(int state) {
    return switch (state) {
      case 1 -> "Not Started";
      case 2 -> "In Progress";
      case FABRIC_STATE_COMPLETED -> "Completed";
      default -> "unknown state " + state;
    };
  }

  /** NVML_GPU_FABRIC_HEALTH_SUMMARY_* as nvidia-smi prints it. */
  static String healthSummary(int summary) {
    return switch (summary) {
      case HEALTH_SUMMARY_HEALTHY -> "Healthy";
      case 2 -> "Unhealthy";
      case 3 -> "Limited Capacity";
      default -> "unknown summary " + summary;
    };
  }
}
