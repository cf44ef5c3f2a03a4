package io.gantry.gpusharing;

/**
 * KAI's GPU-device order within a node for shared tasks (kai-reference §6): each candidate device
 * gets a score, highest first.
 */
public enum DeviceOrder {
  /** Fullest shared GPU that fits first (its used portion); a whole free GPU scores 0. */
  GPUPACK,
  /** A whole free GPU first (1), then the emptiest shared GPU (1 − used portion). */
  GPUSPREAD;

  public double score(GpuCandidate candidate) {
    return switch (this) {
      case GPUPACK -> candidate.isShared() ? candidate.usedPortion().toDouble() : 0;
      case GPUSPREAD -> candidate.isShared() ? 1 - candidate.usedPortion().toDouble() : 1;
    };
  }
}
