package io.gantry.nodecommon.testing;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.OptionalDouble;

/**
 * A node component's {@code /metrics} as Prometheus reads it: fetched over HTTP, and the value of
 * one sample picked by name and labels.
 */
public record MetricsScrape(String text) {
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  /** {@code GET http://127.0.0.1:<port>/metrics}; fails unless it answers 200. */
  public static MetricsScrape of(int port) throws IOException, InterruptedException {
    HttpResponse<String> response =
        HTTP.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics")).build(),
            HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new IOException("/metrics answered " + response.statusCode());
    }
    return new MetricsScrape(response.body());
  }

  /**
   * The value of the sample {@code name} that has every label of {@code labels} (and maybe more);
   * empty when none has. {@code labels} alternate name and value.
   */
  public OptionalDouble value(String name, String... labels) {
    if (labels.length % 2 != 0) {
      throw new IllegalArgumentException("labels alternate name and value");
    }
    for (String line : text.lines().toList()) {
      if (line.startsWith("#") || !(line.startsWith(name + "{") || line.startsWith(name + " "))) {
        continue;
      }
      int end = line.lastIndexOf(' ');
      String series = line.substring(0, end);
      boolean all = true;
      for (int i = 0; i < labels.length; i += 2) {
        all &= series.contains(labels[i] + "=\"" + labels[i + 1] + "\"");
      }
      if (all) {
        return OptionalDouble.of(Double.parseDouble(line.substring(end + 1)));
      }
    }
    return OptionalDouble.empty();
  }

  /** For messages: the samples whose names start with {@code prefix}. */
  public String samples(String prefix) {
    return String.join("\n", text.lines().filter(l -> l.startsWith(prefix)).toList());
  }
}
