package io.gantry.fakekube;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;

/** Writes JSON responses. */
final class Responses {
  private Responses() {}

  static void json(HttpExchange exchange, int code, JsonNode body) throws IOException {
    byte[] bytes = Json.bytes(body);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(code, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  static void status(HttpExchange exchange, KubeStatus status) throws IOException {
    json(exchange, status.code(), status.toJson());
  }

  /**
   * Starts a chunked JSON body and returns the generator that writes it, as the real server streams
   * a list or a watch: the client decodes while the body is written, and no body is ever whole in
   * memory. Closing the generator ends the body.
   */
  static JsonGenerator stream(HttpExchange exchange, int code) throws IOException {
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(code, 0);
    return Json.generator(exchange.getResponseBody());
  }
}
