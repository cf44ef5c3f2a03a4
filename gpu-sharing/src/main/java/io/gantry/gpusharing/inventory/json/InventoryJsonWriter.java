package io.gantry.gpusharing.inventory.json;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gantry.gpusharing.inventory.FabricMembership;
import io.gantry.gpusharing.inventory.GpuDevice;
import io.gantry.gpusharing.inventory.GpuInventory;
import io.gantry.gpusharing.inventory.GpuLink;
import io.gantry.gpusharing.inventory.MigInstance;
import io.gantry.gpusharing.inventory.NvlinkDomain;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The inventory as a JSON tree: the one shape that {@code discover --output json} prints and the
 * node annotation carries ({@link InventoryJsonReader} reads it back). Keys are written in a fixed
 * order, unknown values are {@code null} and enum values are lower case, so the same machine gives
 * the same bytes.
 */
public final class InventoryJsonWriter {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private InventoryJsonWriter() {}

  /** The inventory's JSON object. */
  public static ObjectNode write(GpuInventory inventory) {
    ObjectNode root = MAPPER.createObjectNode();
    root.put("driverVersion", inventory.driverVersion());
    put(root, "cudaVersion", inventory.cudaVersion());
    root.put("gpuCount", inventory.devices().size());
    ArrayNode devices = root.putArray("devices");
    inventory.devices().forEach(d -> devices.add(device(d)));
    ArrayNode domains = root.putArray("nvlinkDomains");
    inventory.nvlinkDomains().forEach(d -> domains.add(domain(d)));
    root.put("linkMatrixAvailable", inventory.linkMatrixAvailable());
    ArrayNode links = root.putArray("gpuLinks");
    inventory.gpuLinks().forEach(l -> links.add(link(l)));
    return root;
  }

  /** How enum values are written: lower case names. */
  static String lower(Enum<?> value) {
    return value.name().toLowerCase(Locale.ROOT);
  }

  private static ObjectNode device(GpuDevice d) {
    ObjectNode node = MAPPER.createObjectNode();
    node.put("index", d.index());
    node.put("uuid", d.uuid());
    node.put("pciBusId", d.pciBusId());
    node.put("productName", d.productName());
    node.put("memoryMib", d.memoryMib());
    node.put("migMode", lower(d.migMode()));
    ArrayNode migs = node.putArray("migInstances");
    d.migInstances().forEach(m -> migs.add(mig(m)));
    put(node, "numaNode", d.numaNode());
    ObjectNode health = node.putObject("health");
    health.put("status", lower(d.health().status()));
    ArrayNode reasons = health.putArray("reasons");
    d.health().reasons().forEach(reasons::add);
    if (d.fabric().isPresent()) {
      FabricMembership f = d.fabric().get();
      ObjectNode fabric = node.putObject("fabric");
      put(fabric, "clusterUuid", f.clusterUuid());
      put(fabric, "cliqueId", f.cliqueId());
    } else {
      node.putNull("fabric");
    }
    return node;
  }

  private static ObjectNode mig(MigInstance m) {
    ObjectNode node = MAPPER.createObjectNode();
    node.put("index", m.index());
    node.put("gpuInstanceId", m.gpuInstanceId());
    node.put("computeInstanceId", m.computeInstanceId());
    put(node, "profile", m.profile());
    put(node, "uuid", m.uuid());
    node.put("memoryMib", m.memoryMib());
    put(node, "multiprocessorCount", m.multiprocessorCount());
    return node;
  }

  private static ObjectNode domain(NvlinkDomain d) {
    ObjectNode node = MAPPER.createObjectNode();
    node.put("id", d.id());
    ArrayNode gpus = node.putArray("gpuIndices");
    d.gpuIndices().forEach(gpus::add);
    node.put("allToAll", d.allToAll());
    put(node, "clique", d.clique());
    ArrayNode sources = node.putArray("sources");
    d.sources().forEach(s -> sources.add(lower(s)));
    return node;
  }

  private static ObjectNode link(GpuLink l) {
    ObjectNode node = MAPPER.createObjectNode();
    node.put("gpuIndexA", l.gpuIndexA());
    node.put("gpuIndexB", l.gpuIndexB());
    node.put("type", lower(l.type()));
    node.put("nvlinkCount", l.nvlinkCount());
    return node;
  }

  private static void put(ObjectNode node, String key, Optional<String> value) {
    if (value.isPresent()) {
      node.put(key, value.get());
    } else {
      node.putNull(key);
    }
  }

  private static void put(ObjectNode node, String key, OptionalInt value) {
    if (value.isPresent()) {
      node.put(key, value.getAsInt());
    } else {
      node.putNull(key);
    }
  }
}
