package io.gantry.scheduler.sim.report;

import io.gantry.scheduler.sim.SimulationResult;
import io.gantry.scheduler.sim.SimulationResult.NodeResult;
import io.gantry.scheduler.sim.SimulationResult.TaskResult;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * A run in one line: tasks placed (Binding, Bound, Running), pipelined and waiting (Pending, Gated)
 * as the last cycle left them, pods evicted over the whole run (their {@code Evict} events), and
 * the GPU devices in use out of all the nodes' devices.
 */
public record RunSummary(
    int placed, int pipelined, int pending, int evicted, long usedGpus, long totalGpus) {

  public static RunSummary of(SimulationResult r) {
    int placed = 0;
    int pipelined = 0;
    int pending = 0;
    for (TaskResult t : r.tasks()) {
      switch (t.status()) {
        case "Binding", "Bound", "Running", "Allocated" -> placed++;
        case "Pipelined" -> pipelined++;
        case "Pending", "Gated" -> pending++;
        default -> {
          // Releasing, Succeeded, Failed: neither placed nor waiting
        }
      }
    }
    int evicted = (int) r.events().stream().filter(e -> e.reason().equals("Evict")).count();
    long used = 0;
    long total = 0;
    for (NodeResult n : r.nodes()) {
      used += n.usedGpus();
      total += (long) n.idleGpus() + n.releasingGpus() + n.usedGpus();
    }
    return new RunSummary(placed, pipelined, pending, evicted, used, total);
  }

  /** GPU devices in use as a percentage of all, one decimal; empty without GPUs. */
  public String gpuPercent() {
    if (totalGpus == 0) {
      return "";
    }
    return BigDecimal.valueOf(usedGpus * 100)
            .divide(BigDecimal.valueOf(totalGpus), 1, RoundingMode.HALF_UP)
            .toPlainString()
        + "%";
  }

  /**
   * {@code Summary: 5 placed, 2 pending, 1 evicted; GPUs 6 of 8 allocated (75.0%)}, with the
   * pipelined count only when some are.
   */
  public String line() {
    StringBuilder out = new StringBuilder("Summary: ").append(placed).append(" placed, ");
    if (pipelined > 0) {
      out.append(pipelined).append(" pipelined, ");
    }
    out.append(pending).append(" pending, ").append(evicted).append(" evicted; ");
    if (totalGpus == 0) {
      out.append("no GPUs");
    } else {
      out.append("GPUs ")
          .append(usedGpus)
          .append(" of ")
          .append(totalGpus)
          .append(" allocated (")
          .append(gpuPercent())
          .append(')');
    }
    return out.toString();
  }
}
