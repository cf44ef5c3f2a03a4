package io.gantry.nodecommon.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

class OpsEndpointTest {
  private final HttpClient http = HttpClient.newHttpClient();

  private HttpResponse<String> get(OpsEndpoint endpoint, String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + endpoint.port() + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void servesTheComponentsMetricsAndIsReadyOnlyOnceMarked() throws Exception {
    try (OpsEndpoint endpoint =
        OpsEndpoint.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
      endpoint.registry().counter("gantry_test_things_total").increment(3);

      HttpResponse<String> metrics = get(endpoint, "/metrics");
      assertThat(metrics.statusCode()).isEqualTo(200);
      assertThat(metrics.body()).contains("gantry_test_things_total 3.0");
      assertThat(get(endpoint, "/healthz").statusCode()).isEqualTo(200);

      HttpResponse<String> notReady = get(endpoint, "/readyz");
      assertThat(notReady.statusCode()).isEqualTo(503);
      assertThat(notReady.body()).isEqualTo("not serving the kubelet yet\n");
      endpoint.markReady();
      assertThat(get(endpoint, "/readyz").statusCode()).isEqualTo(200);

      assertThat(get(endpoint, "/snapshot").statusCode()).isEqualTo(404);
    }
  }

  @Test
  void anotherMethodThanGetIs405() throws Exception {
    try (OpsEndpoint endpoint =
        OpsEndpoint.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
      HttpResponse<String> post =
          http.send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + endpoint.port() + "/metrics"))
                  .POST(HttpRequest.BodyPublishers.noBody())
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(post.statusCode()).isEqualTo(405);
    }
  }
}
