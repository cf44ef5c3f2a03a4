package io.gantry.nodecommon.kube;

import java.io.IOException;

/**
 * The API server cannot be used at start ({@link ApiServerProbe}): the configuration was read, but
 * the server it names did not answer in time, or refuses the credentials (HTTP 401). The message
 * names the address and the cause.
 */
public final class ApiServerUnavailableException extends IOException {
  private static final long serialVersionUID = 1L;

  public ApiServerUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
