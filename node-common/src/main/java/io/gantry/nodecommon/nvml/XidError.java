package io.gantry.nodecommon.nvml;

import static java.util.Objects.requireNonNull;

/** A critical XID the driver reported for one GPU. */
public record XidError(String gpuUuid, int gpuIndex, long xid) {
  public XidError {
    requireNonNull(gpuUuid, "gpuUuid is null");
  }

  /** The GPU health reason it gives. */
  public String reason() {
    return "XID " + xid + " reported by the driver";
  }
}
