package io.gantry.deviceagent.deviceplugin;

/** {@code Allocate} cannot give a container its devices; the message says why. */
public final class AllocationException extends Exception {
  private static final long serialVersionUID = 1L;

  public AllocationException(String message) {
    super(message);
  }
}
