package io.gantry.nodecommon.kube;

import java.io.IOException;

/**
 * The API server did not answer at start ({@link ApiServerProbe}): the configuration was read, but
 * the server it names cannot be reached. The message names the address and the cause.
 */
public final class UnreachableApiServerException extends IOException {
  private static final long serialVersionUID = 1L;

  public UnreachableApiServerException(String message, Throwable cause) {
    super(message, cause);
  }
}
