package io.gantry.nodecommon.nvml;

import io.gantry.nodecommon.inventory.DiscoveryException;
import java.util.OptionalInt;

/**
 * An NVML call failed ({@link #returnCode()} is its nvmlReturn_t), the library could not be loaded,
 * it reports no GPU, or an answer could not be used.
 */
public final class NvmlException extends DiscoveryException {
  private static final long serialVersionUID = 1L;

  /** -1 when no NVML call returned the failure (library missing, no GPU, unusable answer). */
  private final int returnCode;

  private final boolean unreadable;

  private NvmlException(String message, int returnCode, boolean unreadable, Throwable cause) {
    super(message, cause);
    this.returnCode = returnCode;
    this.unreadable = unreadable;
  }

  /** {@code function} returned {@code returnCode}; {@code text} is nvmlErrorString's. */
  public static NvmlException failed(String function, int returnCode, String text) {
    return new NvmlException(
        function + " failed: " + text + " (NVML return code " + returnCode + ")",
        returnCode,
        false,
        null);
  }

  /** libnvidia-ml.so.1 could not be loaded. */
  public static NvmlException unavailable(String message, Throwable cause) {
    return new NvmlException(message, -1, false, cause);
  }

  /** NVML works but counts no GPU. */
  public static NvmlException noDevices() {
    return new NvmlException("no NVIDIA GPU found: NVML reports no devices", -1, false, null);
  }

  /** NVML answered {@code function} with a value the inventory cannot hold. */
  public static NvmlException unusable(String function, String problem) {
    return new NvmlException(function + ": " + problem, -1, true, null);
  }

  /** The NVML return code, when an NVML call failed. */
  public OptionalInt returnCode() {
    return returnCode < 0 ? OptionalInt.empty() : OptionalInt.of(returnCode);
  }

  /** True when the NVML call failed with {@code code}. */
  public boolean is(int code) {
    return returnCode == code;
  }

  @Override
  public boolean unreadable() {
    return unreadable;
  }
}
