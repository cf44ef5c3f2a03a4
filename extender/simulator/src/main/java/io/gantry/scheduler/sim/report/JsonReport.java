package io.gantry.scheduler.sim.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BigIntegerNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.gantry.scheduler.sim.SimulationResult;
import io.gantry.scheduler.sim.SimulationResult.Amounts;
import io.gantry.scheduler.sim.SimulationResult.ClaimResult;
import io.gantry.scheduler.sim.SimulationResult.EventResult;
import io.gantry.scheduler.sim.SimulationResult.JobResult;
import io.gantry.scheduler.sim.SimulationResult.NodeResult;
import io.gantry.scheduler.sim.SimulationResult.QueueResult;
import io.gantry.scheduler.sim.SimulationResult.SharedGpuGroup;
import io.gantry.scheduler.sim.SimulationResult.TaskResult;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The machine-readable result of one scenario: one line of JSON in the shape of
 * scenario-format.md's Output section, so that several scenarios form JSON Lines.
 *
 * <p>The output is built as a Jackson tree whose object nodes keep insertion order and whose only
 * map ({@code taskStatuses}) is sorted, so equal results give byte-identical lines.
 */
public final class JsonReport {
  // Configured once and never changed afterwards; Jackson documents the mapper as thread-safe then.
  private static final ObjectMapper MAPPER = JsonMapper.builder().build();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private JsonReport() {}

  /**
   * The result as one line of JSON, without a trailing newline.
   *
   * @throws IllegalArgumentException when a number in the result is NaN or infinite
   */
  public static String toJson(SimulationResult r) {
    ObjectNode root = NODES.objectNode();
    root.put("scenario", r.scenario());
    root.put("cycles", r.cycles());
    ArrayNode tasks = root.putArray("tasks");
    r.tasks().forEach(t -> tasks.add(task(t)));
    ArrayNode jobs = root.putArray("jobs");
    r.jobs().forEach(j -> jobs.add(job(j)));
    ArrayNode queues = root.putArray("queues");
    r.queues().forEach(q -> queues.add(queue(q)));
    ArrayNode nodes = root.putArray("nodes");
    r.nodes().forEach(n -> nodes.add(node(n)));
    ArrayNode events = root.putArray("events");
    r.events().forEach(e -> events.add(event(e)));
    if (!r.claims().isEmpty()) {
      // only scenarios with DRA claims carry the key, so other outputs stay as they were
      ArrayNode claims = root.putArray("claims");
      r.claims().forEach(c -> claims.add(claim(c)));
    }
    try {
      // The default writer is compact and escapes line breaks inside strings: always one line.
      return MAPPER.writeValueAsString(root);
    } catch (JsonProcessingException e) {
      // Writing an in-memory tree of strings and numbers to a String has no I/O that could fail.
      throw new UncheckedIOException(e);
    }
  }

  private static ObjectNode task(TaskResult t) {
    ObjectNode o = NODES.objectNode();
    o.put("job", t.job());
    o.put("task", t.task());
    o.put("status", t.status());
    o.set("node", text(t.node()));
    ArrayNode groups = o.putArray("gpuGroups");
    t.gpuGroups().forEach(groups::add);
    o.set("gpuPortion", gpu(t.gpuPortion()));
    if (!t.gpuDevices().isEmpty()) {
      // only on nodes that name their GPUs, so reports of other nodes keep their shape
      ArrayNode devices = o.putArray("gpuDevices");
      t.gpuDevices().forEach(devices::add);
    }
    o.set("message", text(t.message()));
    return o;
  }

  private static ObjectNode job(JobResult j) {
    ObjectNode o = NODES.objectNode();
    o.put("job", j.job());
    o.put("status", j.status());
    ObjectNode counts = o.putObject("taskStatuses");
    j.taskStatuses().forEach(counts::put);
    o.put("queue", j.queue());
    o.set("message", text(j.message()));
    return o;
  }

  private static ObjectNode queue(QueueResult q) {
    ObjectNode o = NODES.objectNode();
    o.put("queue", q.queue());
    o.set("fairShare", amounts(q.fairShare()));
    o.set("allocated", amounts(q.allocated()));
    return o;
  }

  private static ObjectNode amounts(Amounts a) {
    ObjectNode o = NODES.objectNode();
    o.set("gpu", number(Precision.GPU.decimal(a.gpu())));
    o.set("cpu", number(Precision.WHOLE.decimal(a.cpu())));
    o.set("memory", number(Precision.WHOLE.decimal(a.memory())));
    return o;
  }

  private static ObjectNode node(NodeResult n) {
    ObjectNode o = NODES.objectNode();
    o.put("node", n.node());
    o.put("idleGpus", n.idleGpus());
    o.put("releasingGpus", n.releasingGpus());
    o.put("usedGpus", n.usedGpus());
    ArrayNode groups = o.putArray("sharedGpuGroups");
    for (SharedGpuGroup g : n.sharedGpuGroups()) {
      ObjectNode group = groups.addObject();
      group.put("group", g.group());
      group.set("usedFraction", number(Precision.GPU.decimal(g.usedFraction())));
    }
    return o;
  }

  private static ObjectNode claim(ClaimResult c) {
    ObjectNode o = NODES.objectNode();
    o.put("claim", c.claim());
    c.node().ifPresent(n -> o.put("node", n));
    ArrayNode devices = o.putArray("devices");
    c.devices().forEach(devices::add);
    if (!c.config().isEmpty()) {
      // only when there is some, so the output of claims without config stays as it was
      ArrayNode config = o.putArray("config");
      c.config().forEach(config::add);
    }
    ArrayNode reserved = o.putArray("reservedFor");
    c.reservedFor().forEach(reserved::add);
    return o;
  }

  private static ObjectNode event(EventResult e) {
    ObjectNode o = NODES.objectNode();
    o.put("cycle", e.cycle());
    o.put("object", e.object());
    o.put("reason", e.reason());
    o.put("message", e.message());
    return o;
  }

  private static JsonNode text(Optional<String> value) {
    return value.<JsonNode>map(TextNode::valueOf).orElse(NullNode.getInstance());
  }

  private static JsonNode gpu(OptionalDouble value) {
    return value.isPresent()
        ? number(Precision.GPU.decimal(value.getAsDouble()))
        : NullNode.getInstance();
  }

  /**
   * An integral value becomes an integer node so it prints without a decimal point (and without an
   * exponent, which BigDecimal would use for 32000 after stripping zeros); any other value keeps
   * its few decimals.
   */
  private static JsonNode number(BigDecimal value) {
    return value.scale() <= 0
        ? BigIntegerNode.valueOf(value.toBigIntegerExact())
        : DecimalNode.valueOf(value);
  }
}
