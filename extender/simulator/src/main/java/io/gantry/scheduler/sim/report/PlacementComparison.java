package io.gantry.scheduler.sim.report;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.sim.SimulationResult;
import io.gantry.scheduler.sim.SimulationResult.TaskResult;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;

/**
 * Where a snapshot's scheduler put its pods, against where Gantry puts the same pods when it places
 * them all from scratch ({@code gantry simulate snapshot.zip --compare}). Compared are the pods the
 * snapshot's scheduler schedules that were pending or held a node in the snapshot; each counts once
 * as: on the same node, on another node, placed only in the snapshot (Gantry leaves it pending),
 * placed only by Gantry (pending in the snapshot), or pending in both. The table lists every pod
 * that is not on the same node in both, sorted by {@code namespace/name}.
 */
public record PlacementComparison(
    int sameNode,
    int otherNode,
    int snapshotOnly,
    int gantryOnly,
    int pendingInBoth,
    ImmutableList<Difference> differences) {

  /** A pod whose place differs; empty for pending. */
  public record Difference(String pod, Optional<String> snapshotNode, Optional<String> gantryNode) {
    public Difference {
      requireNonNull(pod, "pod is null");
      requireNonNull(snapshotNode, "snapshotNode is null");
      requireNonNull(gantryNode, "gantryNode is null");
    }
  }

  public PlacementComparison {
    requireNonNull(differences, "differences is null");
  }

  /**
   * @param snapshot each compared pod ({@code namespace/name}) and the node it held in the
   *     snapshot, empty for pending
   * @param gantry the run that placed them from scratch; a task on a node counts as placed unless
   *     it is only pipelined (waiting for evictions)
   */
  public static PlacementComparison of(
      SortedMap<String, Optional<String>> snapshot, SimulationResult gantry) {
    Map<String, Optional<String>> placed = new HashMap<>();
    for (TaskResult t : gantry.tasks()) {
      String namespace = t.job().substring(0, t.job().indexOf('/'));
      placed.put(
          namespace + "/" + t.task(), t.status().equals("Pipelined") ? Optional.empty() : t.node());
    }
    int same = 0;
    int other = 0;
    int snapshotOnly = 0;
    int gantryOnly = 0;
    int pending = 0;
    ImmutableList.Builder<Difference> differences = ImmutableList.builder();
    for (Map.Entry<String, Optional<String>> e : snapshot.entrySet()) {
      Optional<String> was = e.getValue();
      Optional<String> now = placed.getOrDefault(e.getKey(), Optional.empty());
      if (was.isEmpty() && now.isEmpty()) {
        pending++;
        continue;
      }
      if (was.equals(now)) {
        same++;
        continue;
      }
      if (was.isPresent() && now.isPresent()) {
        other++;
      } else if (was.isPresent()) {
        snapshotOnly++;
      } else {
        gantryOnly++;
      }
      differences.add(new Difference(e.getKey(), was, now));
    }
    return new PlacementComparison(
        same, other, snapshotOnly, gantryOnly, pending, differences.build());
  }

  public int compared() {
    return sameNode + otherNode + snapshotOnly + gantryOnly + pendingInBoth;
  }

  /** The summary line: every count, in words. */
  public String summary() {
    return "compared "
        + compared()
        + " pods: "
        + sameNode
        + " on the same node, "
        + otherNode
        + " on another node, "
        + snapshotOnly
        + " placed only in the snapshot, "
        + gantryOnly
        + " placed only by Gantry, "
        + pendingInBoth
        + " pending in both";
  }

  /** The differences as a table, then the summary line. */
  public String toText() {
    StringBuilder out =
        new StringBuilder("Placements: the snapshot's against Gantry's from scratch\n");
    if (!differences.isEmpty()) {
      TextTable table =
          new TextTable(
              List.of(
                  TextTable.Column.left("POD"),
                  TextTable.Column.left("NODE IN SNAPSHOT"),
                  TextTable.Column.left("NODE BY GANTRY")));
      for (Difference d : differences) {
        table.row(List.of(d.pod(), d.snapshotNode().orElse("-"), d.gantryNode().orElse("-")));
      }
      out.append(table.render());
    }
    return out.append("  ").append(summary()).append('\n').toString();
  }

  /** One line of JSON: {@code {"compare": {counts..., "differences": [...]}}}. */
  public String toJson() {
    JsonNodeFactory nodes = JsonNodeFactory.instance;
    ObjectNode root = nodes.objectNode();
    ObjectNode c = root.putObject("compare");
    c.put("compared", compared());
    c.put("sameNode", sameNode);
    c.put("otherNode", otherNode);
    c.put("snapshotOnly", snapshotOnly);
    c.put("gantryOnly", gantryOnly);
    c.put("pendingInBoth", pendingInBoth);
    ArrayNode rows = c.putArray("differences");
    for (Difference d : differences) {
      ObjectNode row = rows.addObject().put("pod", d.pod());
      if (d.snapshotNode().isPresent()) {
        row.put("snapshotNode", d.snapshotNode().get());
      } else {
        row.putNull("snapshotNode");
      }
      if (d.gantryNode().isPresent()) {
        row.put("gantryNode", d.gantryNode().get());
      } else {
        row.putNull("gantryNode");
      }
    }
    return root.toString();
  }
}
