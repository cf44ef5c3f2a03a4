package io.gantry.chart;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

/** YAML text of rendered objects, for tests that change one and read the chart again. */
final class Manifests {
  private static final YAMLMapper YAML = new YAMLMapper();

  private Manifests() {}

  static String yaml(JsonNode object) {
    try {
      return YAML.writeValueAsString(object);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
