package io.gantry.gpusharing.inventory.json;

import com.fasterxml.jackson.databind.JsonNode;
import io.gantry.gpusharing.inventory.DomainSource;
import io.gantry.gpusharing.inventory.FabricMembership;
import io.gantry.gpusharing.inventory.GpuDevice;
import io.gantry.gpusharing.inventory.GpuHealth;
import io.gantry.gpusharing.inventory.GpuInventory;
import io.gantry.gpusharing.inventory.GpuLink;
import io.gantry.gpusharing.inventory.HealthStatus;
import io.gantry.gpusharing.inventory.LinkType;
import io.gantry.gpusharing.inventory.MigInstance;
import io.gantry.gpusharing.inventory.MigMode;
import io.gantry.gpusharing.inventory.NvlinkDomain;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Reads the JSON shape of {@link InventoryJsonWriter} back into a {@link GpuInventory}. Every
 * required key must be present with its type; a value the inventory records refuse (a negative
 * memory, devices out of order) is reported the same way, naming the field.
 */
public final class InventoryJsonReader {
  private InventoryJsonReader() {}

  /**
   * The inventory in {@code root}.
   *
   * @throws InventoryFormatException naming the first field that is missing or wrong
   */
  public static GpuInventory read(JsonNode root) throws InventoryFormatException {
    Node r = new Node(root, "");
    List<GpuDevice> devices = new ArrayList<>();
    for (Node d : r.array("devices")) {
      devices.add(device(d));
    }
    int gpuCount = r.integer("gpuCount");
    if (gpuCount != devices.size()) {
      throw new InventoryFormatException(
          "gpuCount: expected the number of devices (" + devices.size() + "), got " + gpuCount);
    }
    List<NvlinkDomain> domains = new ArrayList<>();
    for (Node d : r.array("nvlinkDomains")) {
      domains.add(domain(d));
    }
    List<GpuLink> links = new ArrayList<>();
    for (Node l : r.array("gpuLinks")) {
      links.add(link(l));
    }
    return r.build(
        "devices",
        () ->
            new GpuInventory(
                r.text("driverVersion"),
                r.optionalText("cudaVersion"),
                devices,
                r.bool("linkMatrixAvailable"),
                links,
                domains));
  }

  private static GpuDevice device(Node d) throws InventoryFormatException {
    List<MigInstance> migs = new ArrayList<>();
    for (Node m : d.array("migInstances")) {
      migs.add(mig(m));
    }
    Node health = d.object("health");
    List<String> reasons = new ArrayList<>();
    for (Node reason : health.array("reasons")) {
      reasons.add(reason.asText());
    }
    HealthStatus status = health.enumValue("status", HealthStatus.class);
    Optional<FabricMembership> fabric = Optional.empty();
    if (d.has("fabric")) {
      Node f = d.object("fabric");
      fabric =
          Optional.of(
              new FabricMembership(f.optionalText("clusterUuid"), f.optionalInt("cliqueId")));
    }
    Optional<FabricMembership> fabricMembership = fabric;
    return d.build(
        "",
        () ->
            new GpuDevice(
                d.integer("index"),
                d.text("uuid"),
                d.text("pciBusId"),
                d.text("productName"),
                d.longValue("memoryMib"),
                d.enumValue("migMode", MigMode.class),
                migs,
                d.optionalInt("numaNode"),
                health.build("status", () -> new GpuHealth(status, reasons)),
                fabricMembership));
  }

  private static MigInstance mig(Node m) throws InventoryFormatException {
    return m.build(
        "",
        () ->
            new MigInstance(
                m.integer("index"),
                m.integer("gpuInstanceId"),
                m.integer("computeInstanceId"),
                m.optionalText("profile"),
                m.optionalText("uuid"),
                m.longValue("memoryMib"),
                m.optionalInt("multiprocessorCount")));
  }

  private static NvlinkDomain domain(Node d) throws InventoryFormatException {
    List<Integer> gpus = new ArrayList<>();
    for (Node g : d.array("gpuIndices")) {
      gpus.add(g.asInt());
    }
    List<DomainSource> sources = new ArrayList<>();
    for (Node s : d.array("sources")) {
      sources.add(s.asEnum(DomainSource.class));
    }
    return d.build(
        "",
        () ->
            new NvlinkDomain(
                d.text("id"), gpus, d.bool("allToAll"), d.optionalText("clique"), sources));
  }

  private static GpuLink link(Node l) throws InventoryFormatException {
    return l.build(
        "",
        () ->
            new GpuLink(
                l.integer("gpuIndexA"),
                l.integer("gpuIndexB"),
                l.enumValue("type", LinkType.class),
                l.integer("nvlinkCount")));
  }

  /** Builds a record whose constructor may refuse the values; the refusal names {@code field}. */
  private interface Builder<T> {
    T build() throws InventoryFormatException;
  }

  /** A JSON node and its path from the root, for messages. */
  private record Node(JsonNode json, String path) {
    String at(String key) {
      return path.isEmpty() ? key : key.isEmpty() ? path : path + "." + key;
    }

    boolean has(String key) {
      return json.hasNonNull(key);
    }

    private JsonNode required(String key) throws InventoryFormatException {
      JsonNode value = json.get(key);
      if (value == null || value.isNull()) {
        throw new InventoryFormatException(at(key) + ": missing");
      }
      return value;
    }

    String text(String key) throws InventoryFormatException {
      JsonNode value = required(key);
      if (!value.isTextual()) {
        throw wrong(key, "a string", value);
      }
      return value.asText();
    }

    Optional<String> optionalText(String key) throws InventoryFormatException {
      return has(key) ? Optional.of(text(key)) : Optional.empty();
    }

    int integer(String key) throws InventoryFormatException {
      JsonNode value = required(key);
      if (!value.canConvertToInt() || !value.isIntegralNumber()) {
        throw wrong(key, "an integer", value);
      }
      return value.asInt();
    }

    OptionalInt optionalInt(String key) throws InventoryFormatException {
      return has(key) ? OptionalInt.of(integer(key)) : OptionalInt.empty();
    }

    long longValue(String key) throws InventoryFormatException {
      JsonNode value = required(key);
      if (!value.canConvertToLong() || !value.isIntegralNumber()) {
        throw wrong(key, "an integer", value);
      }
      return value.asLong();
    }

    boolean bool(String key) throws InventoryFormatException {
      JsonNode value = required(key);
      if (!value.isBoolean()) {
        throw wrong(key, "true or false", value);
      }
      return value.asBoolean();
    }

    <E extends Enum<E>> E enumValue(String key, Class<E> type) throws InventoryFormatException {
      return new Node(required(key), at(key)).asEnum(type);
    }

    Node object(String key) throws InventoryFormatException {
      JsonNode value = required(key);
      if (!value.isObject()) {
        throw wrong(key, "an object", value);
      }
      return new Node(value, at(key));
    }

    List<Node> array(String key) throws InventoryFormatException {
      JsonNode value = required(key);
      if (!value.isArray()) {
        throw wrong(key, "an array", value);
      }
      List<Node> items = new ArrayList<>();
      for (int i = 0; i < value.size(); i++) {
        items.add(new Node(value.get(i), at(key) + "[" + i + "]"));
      }
      return items;
    }

    String asText() throws InventoryFormatException {
      if (!json.isTextual()) {
        throw new InventoryFormatException(path + ": expected a string, got " + json);
      }
      return json.asText();
    }

    int asInt() throws InventoryFormatException {
      if (!json.isIntegralNumber() || !json.canConvertToInt()) {
        throw new InventoryFormatException(path + ": expected an integer, got " + json);
      }
      return json.asInt();
    }

    <E extends Enum<E>> E asEnum(Class<E> type) throws InventoryFormatException {
      String text = asText();
      for (E constant : type.getEnumConstants()) {
        if (InventoryJsonWriter.lower(constant).equals(text)) {
          return constant;
        }
      }
      List<String> known = new ArrayList<>();
      for (E constant : type.getEnumConstants()) {
        known.add(InventoryJsonWriter.lower(constant));
      }
      throw new InventoryFormatException(
          path + ": expected one of " + String.join(", ", known) + ", got \"" + text + "\"");
    }

    <T> T build(String field, Builder<T> builder) throws InventoryFormatException {
      try {
        return builder.build();
      } catch (IllegalArgumentException e) {
        throw new InventoryFormatException(at(field) + ": " + e.getMessage(), e);
      }
    }

    private InventoryFormatException wrong(String key, String expected, JsonNode got) {
      return new InventoryFormatException(at(key) + ": expected " + expected + ", got " + got);
    }
  }
}
