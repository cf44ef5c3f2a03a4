package io.gantry.scheduler.kube.usage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.collect.ImmutableSortedMap;
import io.gantry.scheduler.kube.usage.PrometheusClient.Sample;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Prometheus' answers as the client reads them; no server needed. */
class PrometheusClientTest {
  @Test
  void aVectorIsItsSamplesWithTheirLabels() throws IOException {
    String body =
        """
        {"status":"success","data":{"resultType":"vector","result":[
          {"metric":{"queue_name":"a"},"value":[1796106180,"44"]},
          {"metric":{},"value":[1796106180,"NaN"]}]}}
        """;

    assertThat(PrometheusClient.parse("q", 200, body))
        .containsExactly(
            new Sample(ImmutableSortedMap.of("queue_name", "a"), 44),
            new Sample(ImmutableSortedMap.of(), Double.NaN));
  }

  @Test
  void aScalarIsOneSampleWithoutLabels() throws IOException {
    String body =
        "{\"status\":\"success\",\"data\":{\"resultType\":\"scalar\",\"result\":[1,\"8\"]}}";

    assertThat(PrometheusClient.parse("q", 200, body))
        .containsExactly(new Sample(ImmutableSortedMap.of(), 8));
  }

  @Test
  void aMatrixIsRefused() {
    String body = "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[]}}";

    assertThatThrownBy(() -> PrometheusClient.parse("up[5m]", 200, body))
        .hasMessage("prometheus answered a matrix to query up[5m], not a vector");
  }

  @Test
  void anErrorCarriesPrometheusMessage() {
    String body = "{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"parse error\"}";

    assertThatThrownBy(() -> PrometheusClient.parse("sum(", 400, body))
        .hasMessage("prometheus refused query sum(: bad_data: parse error");
  }

  @Test
  void aBodyThatIsNotJsonSaysSo() {
    assertThatThrownBy(() -> PrometheusClient.parse("up", 502, "<html>bad gateway</html>"))
        .hasMessage("prometheus answered HTTP 502 without JSON to query up");
  }

  @Test
  void timeIsUnixSecondsToTheMillisecond() {
    assertThat(PrometheusClient.seconds(Instant.ofEpochMilli(1796106180123L)))
        .isEqualTo("1796106180.123");
    assertThat(PrometheusClient.seconds(Instant.ofEpochSecond(60))).isEqualTo("60");
  }

  @Test
  void anUnreachableServerIsAnIoError() throws IOException {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    PrometheusClient client =
        new PrometheusClient(
            URI.create("http://127.0.0.1:" + port),
            HttpClient.newHttpClient(),
            Duration.ofSeconds(2));

    assertThatThrownBy(() -> client.query("up", Instant.EPOCH)).isInstanceOf(IOException.class);
  }
}
