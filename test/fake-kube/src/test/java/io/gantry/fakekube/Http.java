package io.gantry.fakekube;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.stream.Stream;

/** Plain JDK HttpClient requests to a fake server, for checks below client-java. */
final class Http {
  private final HttpClient client =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final FakeKubeServer server;

  Http(FakeKubeServer server) {
    this.server = server;
  }

  HttpResponse<String> get(String path) {
    return send(HttpRequest.newBuilder(uri(path)).GET().build());
  }

  HttpResponse<String> send(String method, String path, String body, String contentType) {
    return send(
        HttpRequest.newBuilder(uri(path))
            .header("Content-Type", contentType)
            .method(method, HttpRequest.BodyPublishers.ofString(body))
            .build());
  }

  HttpResponse<String> send(HttpRequest request) {
    return send(request, HttpResponse.BodyHandlers.ofString());
  }

  /** A GET answered as soon as its headers arrive, its body read line by line (a watch). */
  HttpResponse<Stream<String>> lines(String path) {
    return send(
        HttpRequest.newBuilder(uri(path)).GET().build(), HttpResponse.BodyHandlers.ofLines());
  }

  private <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> body) {
    try {
      return client.send(request, body);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  URI uri(String path) {
    return URI.create(server.url() + path);
  }

  static ObjectNode json(HttpResponse<String> response) {
    return Json.parseObject(response.body());
  }
}
