package io.gantry.scheduler.kube.crd;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The CRDs under {@code charts/gantry/crds/} accept KAI's own manifests unchanged and the status
 * the scheduler writes, and refuse what the API server would refuse with kubectl's strict field
 * validation (an unknown field, a value outside an enum or below a minimum). The check is a small
 * structural-schema validator: types, properties, additionalProperties, required, enum, minimum,
 * minItems/maxItems, minLength, int-or-string and preserve-unknown-fields.
 */
class CrdSchemaTest {
  private static final Path CRDS = Path.of("../../charts/gantry/crds");
  private static final Path KAI = Path.of("src/test/resources/kai-manifests");
  private static final Path OBJECTS = Path.of("src/test/resources/crd-objects");
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  static Stream<Path> accepted() throws IOException {
    List<Path> files = new ArrayList<>();
    for (Path dir : List.of(KAI, OBJECTS)) {
      try (Stream<Path> s = Files.list(dir)) {
        s.filter(p -> p.toString().endsWith(".yaml"))
            .filter(p -> !p.getFileName().toString().startsWith("bad-"))
            .sorted()
            .forEach(files::add);
      }
    }
    return files.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("accepted")
  void everyKaiKindInTheFileIsAccepted(Path file) throws IOException {
    Map<String, JsonNode> schemas = schemas();
    for (JsonNode doc : documents(file)) {
      String gvk = doc.path("apiVersion").asText() + "/" + doc.path("kind").asText();
      JsonNode schema = schemas.get(gvk);
      if (schema == null) {
        continue; // pods, Jobs: built-in kinds
      }
      assertThat(validate(schema, doc, "")).as(file + " " + gvk).isEmpty();
    }
  }

  @Test
  void theKaiFixturesHoldQueues() throws IOException {
    Map<String, JsonNode> schemas = schemas();
    long queues =
        accepted()
            .flatMap(f -> uncheckedDocuments(f).stream())
            .filter(d -> schemas.containsKey(d.path("apiVersion").asText() + "/Queue"))
            .filter(d -> d.path("kind").asText().equals("Queue"))
            .count();
    assertThat(queues).isGreaterThanOrEqualTo(4);
    assertThat(schemas.keySet())
        .containsExactlyInAnyOrder(
            "scheduling.run.ai/v2/Queue",
            "scheduling.run.ai/v2alpha2/PodGroup",
            "kai.scheduler/v1alpha1/Topology");
  }

  @Test
  void anUnknownFieldIsRefusedNamingIt() throws IOException {
    JsonNode doc = documents(OBJECTS.resolve("bad-queue-field.yaml")).get(0);
    assertThat(validate(schemas().get("scheduling.run.ai/v2/Queue"), doc, ""))
        .containsExactly(".spec.resources.gpu.overQuotaWieght: unknown field");
  }

  @Test
  void enumsAndMinimumsAreChecked() throws IOException {
    JsonNode doc = documents(OBJECTS.resolve("bad-podgroup-preemptibility.yaml")).get(0);
    assertThat(validate(schemas().get("scheduling.run.ai/v2alpha2/PodGroup"), doc, ""))
        .containsExactly(
            ".spec.preemptibility: \"semi-preemptible\" is not one of [\"preemptible\",\"non-preemptible\"]",
            ".spec.minMember: -1 is below the minimum 0");
  }

  private static Map<String, JsonNode> schemas() throws IOException {
    Map<String, JsonNode> out = new TreeMap<>();
    try (Stream<Path> s = Files.list(CRDS)) {
      for (Path crd : s.sorted().toList()) {
        JsonNode doc = documents(crd).get(0);
        assertThat(doc.path("kind").asText()).isEqualTo("CustomResourceDefinition");
        JsonNode spec = doc.get("spec");
        for (JsonNode version : spec.get("versions")) {
          out.put(
              spec.get("group").asText()
                  + "/"
                  + version.get("name").asText()
                  + "/"
                  + spec.get("names").get("kind").asText(),
              version.get("schema").get("openAPIV3Schema"));
        }
      }
    }
    return out;
  }

  private static List<JsonNode> uncheckedDocuments(Path file) {
    try {
      return documents(file);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static List<JsonNode> documents(Path file) throws IOException {
    List<JsonNode> out = new ArrayList<>();
    try (YAMLParser parser = new YAMLFactory().createParser(file.toFile())) {
      Iterator<JsonNode> it = YAML.readValues(parser, JsonNode.class);
      while (it.hasNext()) {
        JsonNode n = it.next();
        if (n != null && !n.isNull() && !n.isMissingNode()) {
          out.add(n);
        }
      }
    }
    return out;
  }

  /** The problems of {@code value} against a structural schema, each naming its path. */
  static List<String> validate(JsonNode schema, JsonNode value, String path) {
    List<String> problems = new ArrayList<>();
    check(schema, value, path, problems);
    return problems;
  }

  private static void check(JsonNode schema, JsonNode value, String path, List<String> out) {
    if (value.isNull()) {
      return;
    }
    if (schema.path("x-kubernetes-int-or-string").asBoolean()) {
      if (!value.isIntegralNumber() && !value.isTextual()) {
        out.add(path + ": must be an integer or a string");
      }
      return;
    }
    String type = schema.path("type").asText("");
    switch (type) {
      case "object" -> {
        if (!value.isObject()) {
          out.add(path + ": must be an object");
          return;
        }
        if (path.equals(".metadata")
            || schema.path("x-kubernetes-preserve-unknown-fields").asBoolean()) {
          return;
        }
        JsonNode props = schema.path("properties");
        JsonNode additional = schema.get("additionalProperties");
        for (JsonNode required : schema.path("required")) {
          if (!value.has(required.asText())) {
            out.add(path + "." + required.asText() + ": required");
          }
        }
        value
            .properties()
            .forEach(
                e -> {
                  String child = path + "." + e.getKey();
                  if (props.has(e.getKey())) {
                    check(props.get(e.getKey()), e.getValue(), child, out);
                  } else if (additional != null && additional.isObject()) {
                    check(additional, e.getValue(), child, out);
                  } else {
                    out.add(child + ": unknown field");
                  }
                });
      }
      case "array" -> {
        if (!value.isArray()) {
          out.add(path + ": must be an array");
          return;
        }
        if (schema.has("minItems") && value.size() < schema.get("minItems").asInt()) {
          out.add(path + ": fewer than " + schema.get("minItems").asInt() + " items");
        }
        if (schema.has("maxItems") && value.size() > schema.get("maxItems").asInt()) {
          out.add(path + ": more than " + schema.get("maxItems").asInt() + " items");
        }
        for (int i = 0; i < value.size(); i++) {
          check(schema.get("items"), value.get(i), path + "[" + i + "]", out);
        }
      }
      case "string" -> {
        if (!value.isTextual()) {
          out.add(path + ": must be a string");
          return;
        }
        if (schema.has("minLength") && value.asText().length() < schema.get("minLength").asInt()) {
          out.add(path + ": shorter than " + schema.get("minLength").asInt());
        }
        if (schema.has("enum")) {
          boolean known = false;
          for (JsonNode allowed : schema.get("enum")) {
            known |= allowed.asText().equals(value.asText());
          }
          if (!known) {
            out.add(path + ": \"" + value.asText() + "\" is not one of " + schema.get("enum"));
          }
        }
      }
      case "integer", "number" -> {
        if (type.equals("integer") ? !value.isIntegralNumber() : !value.isNumber()) {
          out.add(path + ": must be an " + type);
          return;
        }
        if (schema.has("minimum") && value.asDouble() < schema.get("minimum").asDouble()) {
          out.add(path + ": " + value + " is below the minimum " + schema.get("minimum"));
        }
      }
      case "boolean" -> {
        if (!value.isBoolean()) {
          out.add(path + ": must be a boolean");
        }
      }
      default -> out.add(path + ": schema without a type");
    }
  }
}
