package io.gantry.nodecommon.nvidiasmi;

import static java.util.Objects.requireNonNull;

import io.gantry.nodecommon.inventory.DiscoveryException;

/** Discovery through nvidia-smi failed; {@link #reason()} says how, the message says what. */
public final class NvidiaSmiException extends DiscoveryException {
  private static final long serialVersionUID = 1L;

  /** Stable failure codes. */
  public enum Reason {
    /** The executable is not on PATH or not at the configured path: no NVIDIA GPU here. */
    NOT_FOUND,
    /** nvidia-smi could not be started, or exited with a non-zero status (its message is kept). */
    FAILED,
    /** nvidia-smi did not finish within the timeout and was killed. */
    TIMED_OUT,
    /** nvidia-smi ran but reports no GPU. */
    NO_DEVICES,
    /** nvidia-smi's output could not be read; the message names the field. */
    UNPARSEABLE
  }

  private final Reason reason;

  public NvidiaSmiException(Reason reason, String message) {
    super(message);
    this.reason = requireNonNull(reason, "reason is null");
  }

  public NvidiaSmiException(Reason reason, String message, Throwable cause) {
    super(message, cause);
    this.reason = requireNonNull(reason, "reason is null");
  }

  public Reason reason() {
    return reason;
  }

  @Override
  public boolean unreadable() {
    return switch (reason) {
      case NOT_FOUND, FAILED, NO_DEVICES -> false;
      case TIMED_OUT, UNPARSEABLE -> true;
    };
  }

  /** A parse failure of {@code source} (for example "nvidia-smi topo -m") at {@code field}. */
  static NvidiaSmiException unparseable(String source, String field, String problem) {
    return new NvidiaSmiException(Reason.UNPARSEABLE, source + ": " + field + ": " + problem);
  }
}
