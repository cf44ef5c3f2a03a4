package io.gantry.kubemodel.explain;

import io.gantry.scheduler.api.result.explain.Amounts;
import io.gantry.scheduler.api.result.explain.EvictionOption;
import io.gantry.scheduler.api.result.explain.GangFit;
import io.gantry.scheduler.api.result.explain.JobExplanation;
import io.gantry.scheduler.api.result.explain.NodeRoom;
import io.gantry.scheduler.api.result.explain.QueueStanding;
import io.gantry.scheduler.api.result.explain.ReasonCount;
import io.gantry.scheduler.api.result.explain.Victim;
import io.gantry.scheduler.model.ResourceKind;
import io.gantry.scheduler.model.ResourceVector;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

/**
 * {@code gantry explain} and {@code gantry queues} for people: one screen per job, one table of
 * queues. The same text offline and live ({@code /explain}, {@code /queues}).
 */
public final class ExplainText {
  private ExplainText() {}

  /** A pod the snapshot left out: its status and why. */
  public static String leftOutPod(String podKey, String status, String reason) {
    return "Pod " + podKey + ": " + status + "\nReason: " + reason + "\n";
  }

  /** One job's explanation. */
  public static String job(JobExplanation e) {
    StringBuilder out = new StringBuilder();
    out.append("Job ").append(e.jobId()).append(" (queue ").append(e.queue()).append("): ");
    out.append(e.status()).append('\n');
    if (e.globalPosition().isPresent()) {
      out.append("Place in the allocation order: ")
          .append(place(e.globalPosition(), e.globalLength()))
          .append(" overall, ")
          .append(place(e.queuePosition(), e.queueLength()))
          .append(" in queue ")
          .append(e.queue())
          .append('\n');
      if (!e.aheadInQueue().isEmpty()) {
        out.append("  ahead of it in its queue: ")
            .append(String.join(", ", e.aheadInQueue()))
            .append(e.queuePosition().getAsInt() - 1 > e.aheadInQueue().size() ? ", …" : "")
            .append('\n');
      }
    } else {
      out.append("Place in the allocation order: not waiting to be allocated\n");
    }
    e.holdBack()
        .ifPresent(
            h ->
                out.append("Held back by: ")
                    .append(h.kind().name().toLowerCase(java.util.Locale.ROOT).replace('_', ' '))
                    .append(h.queue().isEmpty() ? "" : " (queue " + h.queue() + ")")
                    .append(": ")
                    .append(h.sentence())
                    .append('\n'));
    e.fitMessage()
        .ifPresent(m -> out.append("Scheduler message: ").append(m.replace("\n", "")).append('\n'));
    GangFit g = e.gang();
    if (g.minMember() > 1) {
      out.append("Gang: ")
          .append(g.membersFit())
          .append(" of ")
          .append(g.minMember())
          .append(" required members fit (")
          .append(g.tasks())
          .append(" tasks in all)\n");
    }
    out.append("\nQueues, leaf to root:\n");
    out.append(queueTable(e.queues(), false));
    if (!e.reasons().isEmpty()) {
      out.append("\nNodes that refused the first waiting task, per reason:\n");
      for (ReasonCount r : e.reasons()) {
        out.append(String.format("  %5d  %s%n", r.nodes(), r.reason()));
      }
    }
    if (!e.closestNodes().isEmpty()) {
      out.append("\nNodes closest to fitting it:\n");
      List<List<String>> rows = new ArrayList<>();
      rows.add(List.of("NODE", "FREE", "TASKS FIT", "LACKS"));
      for (NodeRoom n : e.closestNodes()) {
        rows.add(
            List.of(
                n.node(),
                vector(n.free()),
                Long.toString(n.tasksFit()),
                n.lacks().isEmpty() ? "-" : String.join("; ", n.lacks())));
      }
      out.append(table(rows));
    }
    if (!e.evictions().isEmpty()) {
      out.append(
          "\nIf an eviction action ran right after allocate (hypothetical, nothing applied):\n");
      for (EvictionOption o : e.evictions()) {
        out.append("  ").append(o.action()).append(": ").append(option(o)).append('\n');
      }
    }
    return out.toString();
  }

  /** The queue tree, one block per queue: GPUs, cores and GB. */
  public static String queues(List<QueueStanding> queues) {
    return queueTable(queues, true);
  }

  private static String queueTable(List<QueueStanding> queues, boolean tree) {
    List<List<String>> rows = new ArrayList<>();
    List<String> head =
        new ArrayList<>(List.of("QUEUE", "RESOURCE", "QUOTA", "FAIR SHARE", "ALLOCATED", "LIMIT"));
    if (tree) {
      head.addAll(List.of("PENDING", "FIRST PENDING"));
    }
    rows.add(head);
    for (QueueStanding q : queues) {
      boolean first = true;
      for (ResourceKind kind : ResourceKind.values()) {
        List<String> row = new ArrayList<>();
        row.add(first ? (tree ? "  ".repeat(q.depth()) : "") + q.name() : "");
        row.add(Amounts.unit(kind));
        row.add(Amounts.number(kind, q.quota().get(kind)));
        row.add(Amounts.number(kind, q.fairShare().get(kind)));
        row.add(Amounts.number(kind, q.allocated().get(kind)));
        row.add(Amounts.number(kind, q.limit().get(kind)));
        if (tree) {
          row.add(first ? Integer.toString(q.pendingJobs()) : "");
          row.add(first ? String.join(", ", q.firstPending()) : "");
        }
        rows.add(row);
        first = false;
      }
    }
    return table(rows);
  }

  private static String option(EvictionOption o) {
    if (!o.placesJob()) {
      return "would not place the job";
    }
    if (o.victims().isEmpty()) {
      return "allocate places the job; no eviction needed";
    }
    List<String> victims = new ArrayList<>();
    for (Victim v : o.victims()) {
      victims.add(v.jobId() + " (pod " + v.taskId() + " on " + v.node() + ")");
    }
    return "would place the job by evicting " + String.join(", ", victims);
  }

  private static String place(OptionalInt position, int of) {
    return position.isPresent() ? position.getAsInt() + " of " + of : "-";
  }

  private static String vector(ResourceVector v) {
    List<String> parts = new ArrayList<>();
    for (ResourceKind kind : ResourceKind.values()) {
      parts.add(Amounts.format(kind, v.get(kind)));
    }
    return String.join(", ", parts);
  }

  /** Left-aligned columns two spaces apart, each row indented two spaces. */
  private static String table(List<List<String>> rows) {
    int columns = rows.get(0).size();
    int[] width = new int[columns];
    for (List<String> row : rows) {
      for (int c = 0; c < columns; c++) {
        width[c] = Math.max(width[c], row.get(c).length());
      }
    }
    StringBuilder out = new StringBuilder();
    for (List<String> row : rows) {
      StringBuilder line = new StringBuilder("  ");
      for (int c = 0; c < columns; c++) {
        line.append(row.get(c));
        if (c < columns - 1) {
          line.append(" ".repeat(width[c] - row.get(c).length() + 2));
        }
      }
      out.append(line.toString().stripTrailing()).append('\n');
    }
    return out.toString();
  }
}
