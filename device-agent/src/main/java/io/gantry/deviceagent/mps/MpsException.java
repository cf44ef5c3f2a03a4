package io.gantry.deviceagent.mps;

/** An MPS control daemon could not be started, reached or stopped; the message says which. */
public final class MpsException extends Exception {
  private static final long serialVersionUID = 1L;

  public MpsException(String message) {
    super(message);
  }
}
