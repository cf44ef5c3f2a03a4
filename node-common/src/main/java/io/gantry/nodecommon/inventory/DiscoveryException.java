package io.gantry.nodecommon.inventory;

/**
 * Taking the inventory failed, through nvidia-smi or NVML. The message says what failed; {@link
 * #unreadable()} says whether the GPU answered with something that could not be used (rather than
 * not answering at all), which the commands report with different exit statuses.
 */
public abstract class DiscoveryException extends Exception {
  private static final long serialVersionUID = 1L;

  protected DiscoveryException(String message) {
    super(message);
  }

  protected DiscoveryException(String message, Throwable cause) {
    super(message, cause);
  }

  /**
   * True when the GPU's answer could not be read or did not come in time; false when there is no
   * usable GPU (no tool or library, a failing driver, no device).
   */
  public abstract boolean unreadable();
}
