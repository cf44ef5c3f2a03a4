package io.gantry.scheduler.plugins;

import io.gantry.scheduler.api.config.SearchBudgets;
import io.gantry.scheduler.framework.AccumulatedScenario;
import io.gantry.scheduler.framework.ScenarioGenerator;
import io.gantry.scheduler.framework.SessionView;
import io.gantry.scheduler.framework.TaskState;
import io.gantry.scheduler.framework.VictimBatch;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * KAI's {@code sg-nodelocalgreedy} generator (kai-reference §4.11): for each accumulated victim
 * set, one scenario per node of the victim job popped last — the accumulated batches that have a
 * task on that node, each taken whole. Without new victims it tries the recorded victims alone.
 */
public final class NodeLocalGreedyPlugin implements ScenarioGenerator {
  public static final String NAME = "sg-nodelocalgreedy";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String generatorName() {
    return SearchBudgets.NODE_LOCAL_GREEDY;
  }

  @Override
  public List<List<TaskState>> scenarios(AccumulatedScenario base, SessionView session) {
    if (base.latest().isEmpty()) {
      return base.recorded().isEmpty() ? List.of() : List.of(List.of());
    }
    Set<String> nodes = new TreeSet<>();
    for (TaskState t : base.latest().get().job().tasks()) {
      if (t.nodeName().isPresent() && t.status().isActiveUsed()) {
        nodes.add(t.nodeName().get());
      }
    }
    List<List<TaskState>> out = new ArrayList<>();
    Set<Set<TaskState>> seen = new HashSet<>();
    for (String node : nodes) {
      List<TaskState> picked = new ArrayList<>();
      for (VictimBatch b : base.potential()) {
        if (b.tasks().stream().anyMatch(t -> t.nodeName().orElse("").equals(node))) {
          picked.addAll(b.tasks());
        }
      }
      if (!picked.isEmpty() && seen.add(new HashSet<>(picked))) {
        out.add(List.copyOf(picked));
      }
    }
    return out;
  }
}
