package io.gantry.scheduler.kube.usage;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.math.BigDecimal;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The part of Prometheus' HTTP API that usage needs: an instant query ({@code POST /api/v1/query})
 * at a given time, answering a vector or a scalar. A failed query — unreachable server, a status
 * other than {@code success}, a body that is not Prometheus' JSON — is an {@link IOException} that
 * says what Prometheus said.
 */
public final class PrometheusClient {
  /** One element of an instant vector: its labels and value. */
  public record Sample(ImmutableSortedMap<String, String> labels, double value) {
    public Sample {
      requireNonNull(labels, "labels is null");
    }
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  private final URI queryUri;
  private final HttpClient http;
  private final Duration timeout;

  /**
   * @param base the server's base URL ({@code http://prometheus:9090}, or with a path prefix)
   * @param timeout how long one query may take
   */
  public PrometheusClient(URI base, HttpClient http, Duration timeout) {
    requireNonNull(base, "base is null");
    String text = base.toString();
    this.queryUri = URI.create((text.endsWith("/") ? text : text + "/") + "api/v1/query");
    this.http = requireNonNull(http, "http is null");
    this.timeout = requireNonNull(timeout, "timeout is null");
  }

  /** Evaluates {@code promql} at {@code at}. */
  public List<Sample> query(String promql, Instant at) throws IOException {
    String form =
        "query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8) + "&time=" + seconds(at);
    HttpRequest request =
        HttpRequest.newBuilder(queryUri)
            .timeout(timeout)
            .header("Content-Type", "application/x-www-form-urlencoded")
            .header("Accept", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(form, StandardCharsets.UTF_8))
            .build();
    HttpResponse<String> response;
    try {
      response = http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      InterruptedIOException stop = new InterruptedIOException("query interrupted: " + promql);
      stop.initCause(e);
      throw stop;
    }
    return parse(promql, response.statusCode(), response.body());
  }

  static List<Sample> parse(String promql, int status, String body) throws IOException {
    JsonNode root;
    try {
      root = JSON.readTree(body);
    } catch (IOException e) {
      throw new IOException(
          "prometheus answered HTTP " + status + " without JSON to query " + promql, e);
    }
    if (root == null || !"success".equals(root.path("status").asText())) {
      String what =
          root == null
              ? "an empty body"
              : root.path("errorType").asText("error") + ": " + root.path("error").asText("");
      throw new IOException("prometheus refused query " + promql + ": " + what);
    }
    JsonNode data = root.path("data");
    String type = data.path("resultType").asText();
    JsonNode result = data.path("result");
    switch (type) {
      case "vector":
        ImmutableList.Builder<Sample> samples = ImmutableList.builder();
        for (JsonNode element : result) {
          samples.add(
              new Sample(labels(element.path("metric")), value(promql, element.path("value"))));
        }
        return samples.build();
      case "scalar":
        return ImmutableList.of(new Sample(ImmutableSortedMap.of(), value(promql, result)));
      default:
        throw new IOException(
            "prometheus answered a " + type + " to query " + promql + ", not a vector");
    }
  }

  private static ImmutableSortedMap<String, String> labels(JsonNode metric) {
    ImmutableSortedMap.Builder<String, String> out = ImmutableSortedMap.naturalOrder();
    for (Map.Entry<String, JsonNode> e : metric.properties()) {
      out.put(e.getKey(), e.getValue().asText());
    }
    return out.build();
  }

  /** A {@code [time, "value"]} pair; Prometheus writes the value as a string ("NaN", "+Inf"). */
  private static double value(String promql, JsonNode pair) throws IOException {
    if (!pair.isArray() || pair.size() != 2) {
      throw new IOException("prometheus answered a malformed sample to query " + promql);
    }
    String text = pair.get(1).asText();
    try {
      return switch (text) {
        case "NaN" -> Double.NaN;
        case "+Inf" -> Double.POSITIVE_INFINITY;
        case "-Inf" -> Double.NEGATIVE_INFINITY;
        default -> Double.parseDouble(text);
      };
    } catch (NumberFormatException e) {
      throw new IOException("prometheus answered value " + text + " to query " + promql, e);
    }
  }

  /** Unix seconds with the millisecond, as Prometheus reads {@code time}. */
  static String seconds(Instant at) {
    return BigDecimal.valueOf(at.toEpochMilli())
        .movePointLeft(3)
        .stripTrailingZeros()
        .toPlainString();
  }
}
