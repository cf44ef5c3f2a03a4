package io.gantry.gpusharing;

/**
 * Where the device of a shared GPU group came from, and so where it returns when the group closes.
 */
public enum DeviceSource {
  /** A whole GPU that held nothing. */
  IDLE,
  /**
   * A whole GPU still being released: the group exists only because a task was pipelined onto it,
   * so until the device is free every task placed on the group is pipelined too.
   */
  RELEASING
}
