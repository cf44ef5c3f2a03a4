package io.gantry.gpusharing.inventory;

/** A GPU's current MIG mode, as {@code nvidia-smi -q -x} reports it in mig_mode/current_mig. */
public enum MigMode {
  /** The GPU cannot be partitioned: nvidia-smi prints N/A, or the element is absent. */
  UNSUPPORTED,
  DISABLED,
  ENABLED
}
