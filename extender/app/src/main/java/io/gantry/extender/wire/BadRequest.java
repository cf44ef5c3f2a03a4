package io.gantry.extender.wire;

/** A request the extender cannot read; the message names the field and says what was expected. */
public final class BadRequest extends Exception {
  private static final long serialVersionUID = 1L;

  public BadRequest(String message) {
    super(message);
  }
}
