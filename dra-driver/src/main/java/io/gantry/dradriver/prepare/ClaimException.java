package io.gantry.dradriver.prepare;

/**
 * Preparing or unpreparing one claim failed; the message names the claim and, for bad input, the
 * field, and becomes that claim's {@code error} in the kubelet's answer.
 */
public final class ClaimException extends Exception {
  private static final long serialVersionUID = 1L;

  public ClaimException(String message) {
    super(message);
  }

  public ClaimException(String message, Throwable cause) {
    super(message, cause);
  }
}
