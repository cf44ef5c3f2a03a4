package io.gantry.gpusharing.inventory;

/** What an NVLink domain was derived from. */
public enum DomainSource {
  /** NV# cells of the {@code nvidia-smi topo -m} matrix. */
  LINK_MATRIX,
  /** NVSwitch fabric registration ({@code <fabric>} of {@code nvidia-smi -q -x}). */
  FABRIC
}
