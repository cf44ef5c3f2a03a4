package io.gantry.nodecommon.kube;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.JsonSyntaxException;
import io.kubernetes.client.openapi.ApiException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import javax.net.ssl.SSLException;

/**
 * A failed API call in a few words for a log line or an error message: the HTTP status and the API
 * server's own message, or, when no answer came ({@code ApiException} code 0, which client-java
 * uses for every network failure), the network cause. Never a stack trace.
 */
public final class ApiErrors {
  private ApiErrors() {}

  /** Why the call failed, e.g. {@code HTTP 404: the server could not find ...}. */
  public static String describe(Throwable failure) {
    if (failure instanceof ApiException api && api.getCode() != 0) {
      String message = statusMessage(api.getResponseBody());
      return "HTTP " + api.getCode() + (message.isEmpty() ? "" : ": " + message);
    }
    Throwable cause = failure;
    while (cause.getCause() != null && cause.getCause() != cause) {
      if (isNetwork(cause)) {
        break;
      }
      cause = cause.getCause();
    }
    return network(cause);
  }

  /** True when no HTTP answer came at all (the server is unreachable, not refusing). */
  public static boolean unanswered(Throwable failure) {
    return !(failure instanceof ApiException api) || api.getCode() == 0;
  }

  private static boolean isNetwork(Throwable t) {
    return t instanceof ConnectException
        || t instanceof UnknownHostException
        || t instanceof SocketTimeoutException
        || t instanceof NoRouteToHostException
        || t instanceof SSLException;
  }

  private static String network(Throwable cause) {
    String message = cause.getMessage() == null ? "" : cause.getMessage();
    if (cause instanceof UnknownHostException) {
      return "unknown host " + message;
    }
    if (cause instanceof SocketTimeoutException) {
      return "timed out" + (message.isEmpty() ? "" : " (" + message + ")");
    }
    if (cause instanceof SSLException) {
      return "TLS handshake failed: " + message;
    }
    if (cause instanceof ConnectException) {
      return "connection refused" + (message.isEmpty() ? "" : " (" + message + ")");
    }
    return cause.getClass().getSimpleName() + (message.isEmpty() ? "" : ": " + message);
  }

  /** The {@code message} of a Kubernetes Status body, else the body's first line. */
  private static String statusMessage(String body) {
    if (body == null || body.isBlank()) {
      return "";
    }
    try {
      JsonElement json = JsonParser.parseString(body);
      if (json.isJsonObject()) {
        JsonObject status = json.getAsJsonObject();
        if (status.has("message") && status.get("message").isJsonPrimitive()) {
          return status.get("message").getAsString();
        }
      }
    } catch (JsonSyntaxException e) {
      // not JSON: the body itself says what went wrong
    }
    String line = body.strip().lines().findFirst().orElse("");
    return line.length() > 200 ? line.substring(0, 200) + "..." : line;
  }
}
