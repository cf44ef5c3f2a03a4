package io.gantry.scheduler.sim.trace;

/** A trace file that cannot be read, naming the file, the line and what was wrong. */
public final class TraceException extends Exception {
  private static final long serialVersionUID = 1L;

  public TraceException(String message) {
    super(message);
  }
}
