package io.gantry.nodecommon.kube;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.reflect.TypeToken;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1Pod;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class RepeatedValueAdaptersTest {
  private static final String POD =
      """
      {"metadata": {"name": "%s", "creationTimestamp": "2026-12-02T11:00:00Z",
                    "deletionTimestamp": null},
       "spec": {"containers": [{"name": "main", "resources": {
         "requests": {"cpu": "500m", "memory": "4Gi", "nvidia.com/gpu": 1}}}]},
       "status": {"startTime": "2026-12-02T11:00:05.123+0000"}}
      """;

  @BeforeAll
  static void install() {
    ApiClients.installRelaxedJson();
  }

  private static V1Pod decode(String name) {
    return JSON.getGson().fromJson(POD.formatted(name), V1Pod.class);
  }

  @Test
  void decodesTheValuesClientJavaDecodes() {
    V1Pod pod = decode("a");

    var requests = pod.getSpec().getContainers().get(0).getResources().getRequests();
    assertThat(requests)
        .containsEntry("cpu", Quantity.fromString("500m"))
        .containsEntry("memory", Quantity.fromString("4Gi"))
        .containsEntry("nvidia.com/gpu", Quantity.fromString("1"));
    assertThat(requests.get("memory").toSuffixedString()).isEqualTo("4Gi");
    assertThat(pod.getMetadata().getCreationTimestamp())
        .isEqualTo(OffsetDateTime.of(2026, 12, 2, 11, 0, 0, 0, ZoneOffset.UTC));
    assertThat(pod.getMetadata().getDeletionTimestamp()).isNull();
    // client-java's "+0000" spelling of UTC
    assertThat(pod.getStatus().getStartTime())
        .isEqualTo(OffsetDateTime.of(2026, 12, 2, 11, 0, 5, 123_000_000, ZoneOffset.UTC));
  }

  @Test
  void aTextDecodedAgainGivesTheSameInstance() {
    V1Pod first = decode("a");
    V1Pod second = decode("b");

    assertThat(second.getSpec().getContainers().get(0).getResources().getRequests().get("cpu"))
        .isSameAs(first.getSpec().getContainers().get(0).getResources().getRequests().get("cpu"));
    assertThat(second.getMetadata().getCreationTimestamp())
        .isSameAs(first.getMetadata().getCreationTimestamp());
  }

  @Test
  void writesWhatClientJavaWrites() {
    V1Pod pod = decode("a");

    String json = JSON.serialize(pod);

    assertThat(json)
        .contains("\"cpu\":\"500m\"")
        .contains("\"memory\":\"4Gi\"")
        .contains("\"creationTimestamp\":\"2026-12-02T11:00:00Z\"");
  }

  @Test
  void aNullQuantityStaysNull() {
    Map<String, Quantity> requests = new HashMap<>();
    requests.put("cpu", null);
    String json = JSON.getGson().newBuilder().serializeNulls().create().toJson(requests);

    assertThat(json).isEqualTo("{\"cpu\":null}");
    Map<String, Quantity> decoded =
        JSON.getGson().fromJson(json, new TypeToken<Map<String, Quantity>>() {}.getType());
    assertThat(decoded).containsEntry("cpu", null);
  }
}
