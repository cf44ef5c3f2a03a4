package io.gantry.scheduler.kube;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * KAI's documented example manifests (src/test/resources/kai-manifests, copied from KAI's docs),
 * with only {@code schedulerName} changed to Gantry's, as a team moving from KAI would apply them.
 */
public final class KaiManifests {
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  private KaiManifests() {}

  /** The first document of a fixture file; its pod spec (or pod template's) runs on Gantry. */
  public static ObjectNode load(String file, String namespace) {
    try (InputStream in = KaiManifests.class.getResourceAsStream("/kai-manifests/" + file)) {
      if (in == null) {
        throw new IllegalArgumentException("no fixture " + file);
      }
      ObjectNode doc = (ObjectNode) YAML.readTree(in);
      ((ObjectNode) doc.get("metadata")).put("namespace", namespace);
      ObjectNode spec = (ObjectNode) doc.get("spec");
      if (spec.has("template")) {
        spec = (ObjectNode) spec.get("template").get("spec");
      }
      if (spec.has("schedulerName")) {
        spec.put("schedulerName", TestObjects.SCHEDULER);
      }
      return doc;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
