package io.gantry.kubemodel.explain;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gantry.scheduler.api.result.explain.EvictionOption;
import io.gantry.scheduler.api.result.explain.JobExplanation;
import io.gantry.scheduler.api.result.explain.NodeRoom;
import io.gantry.scheduler.api.result.explain.OrderedJob;
import io.gantry.scheduler.api.result.explain.PendingJobOrder;
import io.gantry.scheduler.api.result.explain.QueueStanding;
import io.gantry.scheduler.api.result.explain.ReasonCount;
import io.gantry.scheduler.api.result.explain.Victim;
import io.gantry.scheduler.model.ResourceVector;
import java.util.List;
import java.util.OptionalInt;

/**
 * {@code gantry explain}, {@code gantry queues} and {@code /get-job-order} as JSON, one object on
 * one line. Amounts are engine units: GPU devices, CPU millicores, memory bytes; -1 is unlimited.
 * The job order is KAI's {@code reflectjoborder} format.
 */
public final class ExplainJson {
  private static final ObjectMapper JSON = new ObjectMapper();

  private ExplainJson() {}

  /** KAI's {@code {global_order: [{id, priority}], queue_order: {queue: [{id, priority}]}}}. */
  public static String jobOrder(PendingJobOrder order) {
    ObjectNode root = JSON.createObjectNode();
    ArrayNode global = root.putArray("global_order");
    order.global().forEach(j -> global.add(entry(j)));
    ObjectNode byQueue = root.putObject("queue_order");
    order.byQueue().forEach((q, jobs) -> jobs.forEach(j -> byQueue.withArray(q).add(entry(j))));
    return root.toString();
  }

  /** The queue tree, parents before children. */
  public static String queues(List<QueueStanding> queues) {
    ObjectNode root = JSON.createObjectNode();
    ArrayNode out = root.putArray("queues");
    queues.forEach(q -> out.add(queue(q)));
    return root.toString();
  }

  /** A pod the snapshot left out: {@code pod}, {@code status} and {@code reason}. */
  public static String leftOutPod(String podKey, String status, String reason) {
    ObjectNode root = JSON.createObjectNode();
    root.put("pod", podKey);
    root.put("status", status);
    root.put("reason", reason);
    return root.toString();
  }

  /** One job's explanation. */
  public static String job(JobExplanation e) {
    ObjectNode root = JSON.createObjectNode();
    root.put("job", e.jobId());
    root.put("queue", e.queue());
    root.put("status", e.status());
    position(root, "globalPosition", e.globalPosition());
    root.put("globalLength", e.globalLength());
    position(root, "queuePosition", e.queuePosition());
    root.put("queueLength", e.queueLength());
    ArrayNode ahead = root.putArray("aheadInQueue");
    e.aheadInQueue().forEach(ahead::add);
    ArrayNode queues = root.putArray("queues");
    e.queues().forEach(q -> queues.add(queue(q)));
    if (e.holdBack().isPresent()) {
      ObjectNode h = root.putObject("holdBack");
      h.put("kind", e.holdBack().get().kind().name());
      h.put("queue", e.holdBack().get().queue());
      h.put("sentence", e.holdBack().get().sentence());
    } else {
      root.putNull("holdBack");
    }
    if (e.fitMessage().isPresent()) {
      root.put("fitMessage", e.fitMessage().get());
    } else {
      root.putNull("fitMessage");
    }
    ArrayNode reasons = root.putArray("reasons");
    for (ReasonCount r : e.reasons()) {
      reasons.addObject().put("reason", r.reason()).put("nodes", r.nodes());
    }
    ArrayNode closest = root.putArray("closestNodes");
    for (NodeRoom n : e.closestNodes()) {
      ObjectNode node = closest.addObject();
      node.put("node", n.node());
      node.set("free", vector(n.free()));
      node.put("tasksFit", n.tasksFit());
      ArrayNode lacks = node.putArray("lacks");
      n.lacks().forEach(lacks::add);
    }
    ArrayNode evictions = root.putArray("evictions");
    for (EvictionOption o : e.evictions()) {
      ObjectNode option = evictions.addObject();
      option.put("action", o.action());
      option.put("hypothetical", true);
      option.put("placesJob", o.placesJob());
      ArrayNode victims = option.putArray("victims");
      for (Victim v : o.victims()) {
        victims.addObject().put("job", v.jobId()).put("task", v.taskId()).put("node", v.node());
      }
    }
    ObjectNode gang = root.putObject("gang");
    gang.put("minMember", e.gang().minMember());
    gang.put("tasks", e.gang().tasks());
    gang.put("membersFit", e.gang().membersFit());
    return root.toString();
  }

  private static ObjectNode entry(OrderedJob j) {
    return JSON.createObjectNode().put("id", j.jobId()).put("priority", j.priority());
  }

  private static ObjectNode queue(QueueStanding q) {
    ObjectNode node = JSON.createObjectNode();
    node.put("name", q.name());
    if (q.parent().isPresent()) {
      node.put("parent", q.parent().get());
    } else {
      node.putNull("parent");
    }
    node.set("quota", vector(q.quota()));
    node.set("fairShare", vector(q.fairShare()));
    node.set("allocated", vector(q.allocated()));
    node.set("limit", vector(q.limit()));
    node.put("pendingJobs", q.pendingJobs());
    ArrayNode first = node.putArray("firstPending");
    q.firstPending().forEach(first::add);
    return node;
  }

  private static ObjectNode vector(ResourceVector v) {
    ObjectNode node = JSON.createObjectNode();
    number(node, "gpus", v.gpus());
    number(node, "cpuMillis", v.cpuMillis());
    number(node, "memoryBytes", v.memoryBytes());
    return node;
  }

  /** Whole amounts as integers ({@code 512000000000}, not {@code 5.12E11}), others as decimals. */
  private static void number(ObjectNode node, String field, double value) {
    if (value == Math.rint(value) && Math.abs(value) < 1e15) {
      node.put(field, (long) value);
    } else {
      node.put(field, value);
    }
  }

  private static void position(ObjectNode root, String field, OptionalInt position) {
    if (position.isPresent()) {
      root.put(field, position.getAsInt());
    } else {
      root.putNull(field);
    }
  }
}
