package io.gantry.fakekube;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.base.Splitter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Optional;

/** Shared Jackson mapper and small helpers for reading and writing Kubernetes objects. */
public final class Json {
  static final ObjectMapper MAPPER =
      new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  /**
   * The codec of {@link #generator}s: the default mapper flushes the stream after every tree it
   * writes, which would send a chunk per list item; here the generator's buffer decides.
   */
  private static final ObjectMapper STREAMING =
      MAPPER.copy().disable(SerializationFeature.FLUSH_AFTER_WRITE_VALUE);

  private Json() {}

  /** A new empty JSON object. */
  public static ObjectNode object() {
    return JsonNodeFactory.instance.objectNode();
  }

  /** Parses JSON text into an object; a syntax error or a non-object is a 400 Status. */
  public static ObjectNode parseObject(String text) {
    JsonNode node = parse(text);
    if (!node.isObject()) {
      throw new StatusException(
          KubeStatus.badRequest(
              "the request body must be a JSON object, got " + node.getNodeType()));
    }
    return (ObjectNode) node;
  }

  /** Parses any JSON value; a syntax error is a 400 Status naming the problem. */
  public static JsonNode parse(String text) {
    if (text.isBlank()) {
      throw new StatusException(KubeStatus.badRequest("the request body is empty"));
    }
    try {
      return MAPPER.readTree(text);
    } catch (JsonProcessingException e) {
      throw new StatusException(
          KubeStatus.badRequest("json parse error: " + e.getOriginalMessage()));
    }
  }

  /** Compact JSON text of a node. */
  public static String write(JsonNode node) {
    try {
      return MAPPER.writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The object as it reads back from its JSON text: numbers take the type a parser gives them (30
   * is an int whether it was put as a long or not), so equal objects compare equal.
   */
  static ObjectNode canonical(ObjectNode object) {
    try {
      return (ObjectNode) MAPPER.readTree(MAPPER.writeValueAsBytes(object));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static byte[] bytes(JsonNode node) {
    try {
      return MAPPER.writeValueAsBytes(node);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * A generator writing compact JSON to the stream through its own buffer; {@code writeTree} works
   * on it. Closing it closes the stream.
   */
  static JsonGenerator generator(OutputStream out) throws IOException {
    return STREAMING.createGenerator(out);
  }

  /** The object's {@code metadata}, created when missing. */
  public static ObjectNode metadata(ObjectNode object) {
    JsonNode meta = object.get("metadata");
    if (meta instanceof ObjectNode) {
      return (ObjectNode) meta;
    }
    return object.putObject("metadata");
  }

  /** The object's {@code spec}, created when missing. */
  static ObjectNode spec(ObjectNode object) {
    JsonNode spec = object.get("spec");
    if (spec instanceof ObjectNode) {
      return (ObjectNode) spec;
    }
    return object.putObject("spec");
  }

  /** The text at a dotted path ({@code "metadata.name"}), empty when absent or not a scalar. */
  public static Optional<String> text(JsonNode node, String dottedPath) {
    JsonNode current = node;
    for (String part : Splitter.on('.').split(dottedPath)) {
      if (current == null || !current.isObject()) {
        return Optional.empty();
      }
      current = current.get(part);
    }
    if (current == null || current.isNull() || current.isContainerNode()) {
      return Optional.empty();
    }
    return Optional.of(current.asText());
  }

  static String name(JsonNode object) {
    return text(object, "metadata.name").orElse("");
  }

  static String namespace(JsonNode object) {
    return text(object, "metadata.namespace").orElse("");
  }

  /** RFC 3339 at second precision, as the API server writes {@code metav1.Time}. */
  static String timestamp(Instant instant) {
    return DateTimeFormatter.ISO_INSTANT.format(instant.truncatedTo(ChronoUnit.SECONDS));
  }
}
