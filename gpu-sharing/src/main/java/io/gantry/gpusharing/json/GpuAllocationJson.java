package io.gantry.gpusharing.json;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import io.gantry.gpusharing.AssignedGpu;
import io.gantry.gpusharing.ComputeMode;
import io.gantry.gpusharing.GpuAllocation;
import io.gantry.gpusharing.GpuAmount;
import java.math.BigDecimal;
import java.util.Map;

/**
 * The {@value GpuAllocation#ANNOTATION} annotation: a {@link GpuAllocation} as one line of
 * versioned JSON, for example
 *
 * <pre>{"version":1,"node":"gpu-0","deviceCount":1,"portion":"0.50","computeMode":"time-slicing",
 * "gpuGroups":["gpu-0-gpu0"],"devices":[]}</pre>
 *
 * {@code devices} ({@code {"index":0,"uuid":"GPU-…","memoryMib":81920}}) is empty until the node
 * resolves them. {@code chosenDevices} (whole GPUs the scheduler chose by index, {@code
 * "chosenDevices":[4,5,6,7]}) is optional: written only when the scheduler chose devices, so an
 * allocation without a choice keeps the exact bytes every version-1 reader knows, and read as empty
 * when absent. Reading is otherwise strict: another version, an unknown or missing field, or a
 * value of the wrong kind is a {@link GpuAllocationFormatException} naming the field; nothing is
 * half-read.
 */
public final class GpuAllocationJson {
  public static final int VERSION = 1;

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final ImmutableSet<String> FIELDS =
      ImmutableSet.of(
          "version",
          "node",
          "deviceCount",
          "portion",
          "computeMode",
          "gpuGroups",
          "chosenDevices",
          "devices");
  private static final ImmutableSet<String> DEVICE_FIELDS =
      ImmutableSet.of("index", "uuid", "memoryMib");

  private GpuAllocationJson() {}

  public static String write(GpuAllocation a) {
    ObjectNode o = JSON.createObjectNode();
    o.put("version", VERSION);
    o.put("node", a.node());
    o.put("deviceCount", a.deviceCount());
    o.put("portion", a.portionText());
    o.put("computeMode", a.computeMode().wireName());
    ArrayNode groups = o.putArray("gpuGroups");
    a.gpuGroups().forEach(groups::add);
    if (!a.chosenDevices().isEmpty()) {
      ArrayNode chosen = o.putArray("chosenDevices");
      a.chosenDevices().forEach(chosen::add);
    }
    ArrayNode devices = o.putArray("devices");
    for (AssignedGpu d : a.devices()) {
      ObjectNode dn = devices.addObject();
      dn.put("index", d.index());
      dn.put("uuid", d.uuid());
      dn.put("memoryMib", d.memoryMib());
    }
    return o.toString();
  }

  /**
   * The allocation an annotation value holds.
   *
   * @throws GpuAllocationFormatException naming what is wrong
   */
  public static GpuAllocation read(String json) {
    JsonNode root;
    try {
      root = JSON.readTree(json);
    } catch (JsonProcessingException e) {
      throw new GpuAllocationFormatException(
          "not JSON: " + e.getOriginalMessage().replace('\n', ' '));
    }
    if (root == null || !root.isObject()) {
      throw new GpuAllocationFormatException("expected a JSON object");
    }
    JsonNode version = root.get("version");
    if (version == null) {
      throw new GpuAllocationFormatException(
          "field version is missing: not a Gantry GPU allocation");
    }
    if (!version.isInt() || version.intValue() != VERSION) {
      throw new GpuAllocationFormatException(
          "version " + version + " is not supported; this build reads version " + VERSION);
    }
    unknownFields(root, FIELDS, "");
    int deviceCount = integer(root, "deviceCount", "");
    String portionText = text(root, "portion", "");
    GpuAmount portion;
    try {
      BigDecimal p = new BigDecimal(portionText);
      if (p.scale() != 2) {
        throw new NumberFormatException();
      }
      portion = GpuAmount.ofHundredths(p.unscaledValue().longValueExact());
    } catch (NumberFormatException | ArithmeticException e) {
      throw new GpuAllocationFormatException(
          "field portion: expected a decimal with two places such as \"0.50\", got \""
              + portionText
              + "\"");
    }
    ComputeMode mode;
    try {
      mode = ComputeMode.parse(text(root, "computeMode", ""));
    } catch (IllegalArgumentException e) {
      throw new GpuAllocationFormatException("field computeMode: " + e.getMessage());
    }
    ImmutableList.Builder<String> groups = ImmutableList.builder();
    for (JsonNode g : array(root, "gpuGroups")) {
      if (!g.isTextual()) {
        throw new GpuAllocationFormatException("field gpuGroups: expected strings, got " + g);
      }
      groups.add(g.textValue());
    }
    ImmutableList.Builder<Integer> chosen = ImmutableList.builder();
    if (root.has("chosenDevices")) {
      for (JsonNode d : array(root, "chosenDevices")) {
        if (!d.isInt()) {
          throw new GpuAllocationFormatException(
              "field chosenDevices: expected device indices, got " + d);
        }
        chosen.add(d.intValue());
      }
    }
    ImmutableList.Builder<AssignedGpu> devices = ImmutableList.builder();
    int i = 0;
    for (JsonNode d : array(root, "devices")) {
      String at = "devices[" + i++ + "].";
      if (!d.isObject()) {
        throw new GpuAllocationFormatException("field " + at + ": expected an object, got " + d);
      }
      unknownFields(d, DEVICE_FIELDS, at);
      int index = integer(d, "index", at);
      String uuid = text(d, "uuid", at);
      long memoryMib = longValue(d, "memoryMib", at);
      try {
        devices.add(new AssignedGpu(index, uuid, memoryMib));
      } catch (IllegalArgumentException e) {
        throw new GpuAllocationFormatException(
            "field " + at.substring(0, at.length() - 1) + ": " + e.getMessage());
      }
    }
    try {
      return new GpuAllocation(
          text(root, "node", ""),
          deviceCount,
          portion,
          mode,
          groups.build(),
          chosen.build(),
          devices.build());
    } catch (IllegalArgumentException e) {
      if (e instanceof GpuAllocationFormatException) {
        throw e;
      }
      throw new GpuAllocationFormatException(e.getMessage());
    }
  }

  private static void unknownFields(JsonNode o, ImmutableSet<String> known, String at) {
    for (Map.Entry<String, JsonNode> e : o.properties()) {
      String name = e.getKey();
      if (!known.contains(name)) {
        throw new GpuAllocationFormatException(
            "unknown field " + at + name + "; expected " + String.join(", ", known));
      }
    }
  }

  private static JsonNode field(JsonNode o, String name, String at) {
    JsonNode v = o.get(name);
    if (v == null || v.isNull()) {
      throw new GpuAllocationFormatException("field " + at + name + " is missing");
    }
    return v;
  }

  private static String text(JsonNode o, String name, String at) {
    JsonNode v = field(o, name, at);
    if (!v.isTextual()) {
      throw new GpuAllocationFormatException(
          "field " + at + name + ": expected a string, got " + v);
    }
    return v.textValue();
  }

  private static int integer(JsonNode o, String name, String at) {
    long v = longValue(o, name, at);
    if (v != (int) v) {
      throw new GpuAllocationFormatException(
          "field " + at + name + ": expected an integer, got " + v);
    }
    return (int) v;
  }

  private static long longValue(JsonNode o, String name, String at) {
    JsonNode v = field(o, name, at);
    if (!v.isIntegralNumber() || !v.canConvertToLong()) {
      throw new GpuAllocationFormatException(
          "field " + at + name + ": expected an integer, got " + v);
    }
    return v.longValue();
  }

  private static ArrayNode array(JsonNode o, String name) {
    JsonNode v = field(o, name, "");
    if (!v.isArray()) {
      throw new GpuAllocationFormatException("field " + name + ": expected an array, got " + v);
    }
    return (ArrayNode) v;
  }
}
