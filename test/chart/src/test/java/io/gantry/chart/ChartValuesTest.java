package io.gantry.chart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.google.common.base.Splitter;
import io.gantry.scheduler.kube.config.SchedulerSettings;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** Values: a file that sets every documented key, and the schema's errors for wrong ones. */
class ChartValuesTest {
  private static final Path EVERY_KEY = Path.of("src/test/resources/values-every-key.yaml");

  @Test
  void aValuesFileSettingEveryKeyRendersAndEachKeyArrives() throws Exception {
    RenderedChart chart = RenderedChart.render(EVERY_KEY);
    SchedulerSettings settings = ChartRenderTest.settings(chart);

    assertThat(settings.schedulerName()).isEqualTo("gantry-gpu");
    assertThat(settings.leaderElection().enabled()).isTrue();
    assertThat(chart.find("ServiceMonitor", "gantry-scheduler")).isPresent();
    assertThat(chart.find("ConfigMap", "gantry-dashboard")).isPresent();
    assertThat(chart.find("Queue", "root")).isPresent();
    assertThat(chart.find("Queue", "everyone")).isPresent();
    assertThat(chart.ofKind("Job")).isEmpty();
    assertThat(settings.gpuSharing().reservationNamespace()).isEqualTo("gpu-reservations");
    assertThat(settings.gpuSharing().reservationTimeout()).hasSeconds(60);
    assertThat(settings.gpuSharing().runtimeClassName()).contains("nvidia-cdi");
    assertThat(settings.gpuSharing().reservationImage())
        .isEqualTo("registry.example.com/gantry/gantry-device-agent:1.2.3");
    assertThat(settings.gpuSharing().scalingPods()).isTrue();
    assertThat(settings.gpuSharing().scalingNamespace()).isEqualTo("gpu-scale");
    assertThat(settings.gpuSharing().scalingImage()).isEqualTo("registry.example.com/pause:3.10");
    assertThat(chart.find("Namespace", "gpu-scale")).isPresent();
    CrossReferences.check(chart);
  }

  @Test
  void theEveryKeyFileSetsEveryKeyOfTheDefaultValues() throws Exception {
    YAMLMapper yaml = new YAMLMapper();
    JsonNode defaults = yaml.readTree(RenderedChart.chart().resolve("values.yaml").toFile());
    JsonNode every = yaml.readTree(EVERY_KEY.toFile());

    Set<String> set = leafKeys(every, "");
    for (String key : leafKeys(defaults, "")) {
      assertThat(set.stream().anyMatch(k -> k.equals(key) || k.startsWith(key + ".")))
          .as("values-every-key.yaml sets %s", key)
          .isTrue();
    }
  }

  @Test
  void everyDefaultKeyIsInTheSchema() throws Exception {
    YAMLMapper yaml = new YAMLMapper();
    JsonNode defaults = yaml.readTree(RenderedChart.chart().resolve("values.yaml").toFile());
    JsonNode schema =
        new ObjectMapper().readTree(RenderedChart.chart().resolve("values.schema.json").toFile());

    for (String key : leafKeys(defaults, "")) {
      JsonNode node = schema;
      for (String part : Splitter.on('.').split(key)) {
        if (freeForm(node)) {
          break;
        }
        JsonNode next = node.path("properties").path(part);
        node = next.isMissingNode() ? node.path("additionalProperties") : next;
      }
      assertThat(node.isObject()).as("schema entry of %s", key).isTrue();
    }
  }

  @Test
  void aWrongTypeFailsWithTheSchemasMessageNamingTheKey() {
    assertThatThrownBy(() -> RenderedChart.render(Map.of("scheduler.replicas", "three")))
        .hasMessageContaining("values don't meet the specifications of the schema")
        .hasMessageContaining("replicas");
  }

  @Test
  void aMisspeltKeyFailsNamingIt() {
    assertThatThrownBy(() -> RenderedChart.render(Map.of("scheduler.config.schedulerNmae", "x")))
        .hasMessageContaining("schedulerNmae");
  }

  @Test
  void anUnknownActionFailsNamingIt() {
    assertThatThrownBy(() -> RenderedChart.render(Map.of("scheduler.config.actions[0]", "evict")))
        .hasMessageContaining("actions");
  }

  /** An object schema that names no properties: any keys below it are the user's. */
  private static boolean freeForm(JsonNode schema) {
    return schema.path("type").asText().equals("object")
        && !schema.has("properties")
        && !schema.has("additionalProperties");
  }

  /** Keys of values, dotted; a map keyed by labels (keys with dots or slashes) is one leaf. */
  private static Set<String> leafKeys(JsonNode node, String prefix) {
    Set<String> out = new TreeSet<>();
    boolean labelMap =
        node.isObject() && node.propertyStream().anyMatch(e -> e.getKey().matches(".*[./].*"));
    if (node.isObject() && !node.isEmpty() && !labelMap) {
      for (Map.Entry<String, JsonNode> e : node.properties()) {
        out.addAll(
            leafKeys(e.getValue(), prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey()));
      }
    } else {
      out.add(prefix);
    }
    return out;
  }
}
