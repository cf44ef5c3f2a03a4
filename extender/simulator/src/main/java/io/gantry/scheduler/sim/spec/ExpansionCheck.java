package io.gantry.scheduler.sim.spec;

import io.gantry.kubemodel.read.Field;
import io.gantry.kubemodel.read.MapReader;
import io.gantry.kubemodel.read.ScenarioException;
import java.util.List;
import java.util.Optional;

/**
 * Counts the nodes and pods a scenario expands to and rejects the field that takes a total past its
 * {@link ScenarioLimits}. It runs before any section is bound, so no name is expanded and nothing
 * is built for a file that asks for two billion nodes. It reads only {@code count} and {@code
 * replicas}, with the binders' own type and minimum checks; everything else is left to the binders.
 */
final class ExpansionCheck {
  private ExpansionCheck() {}

  static void check(MapReader top, ScenarioLimits limits) throws ScenarioException {
    checkNodes(top.list("nodes"), limits.maxNodes());
    checkPods(top.list("jobs"), limits.maxPods());
  }

  private static void checkNodes(List<Field> items, int max) throws ScenarioException {
    long nodes = 0;
    for (Field item : items) {
      Optional<Field> countField = item.asOpenMap().optional("count");
      nodes += countField.isPresent() ? countField.get().asInt(NodeBinder.MIN_COUNT) : 1;
      if (nodes > max) {
        throw countField.orElse(item).error(over(nodes, "nodes", max, "--max-nodes"));
      }
    }
  }

  private static void checkPods(List<Field> items, int max) throws ScenarioException {
    long pods = 0;
    for (Field item : items) {
      MapReader job = item.asOpenMap();
      Optional<Field> countField = job.optional("count");
      int count = countField.isPresent() ? countField.get().asInt(JobBinder.MIN_COUNT) : 1;
      // Task names are expanded even for a job with count 0, so one copy is bounded on its own.
      long before = count == 0 ? 0 : pods;
      long perCopy = 0;
      Optional<Field> tasks = job.optional("tasks");
      for (Field task : tasks.isPresent() ? tasks.get().asList() : List.<Field>of()) {
        Optional<Field> replicasField = task.asOpenMap().optional("replicas");
        perCopy +=
            replicasField.isPresent() ? replicasField.get().asInt(TaskBinder.MIN_REPLICAS) : 1;
        if (before + perCopy > max) {
          String problem =
              count == 0
                  ? "one copy of this job would have "
                      + perCopy
                      + " pods"
                      + limit(max, "--max-pods")
                  : over(before + perCopy, "pods", max, "--max-pods");
          throw replicasField.orElse(task).error(problem);
        }
      }
      // perCopy <= max and count <= Integer.MAX_VALUE, so the product fits in a long.
      pods += count * perCopy;
      if (pods > max) {
        throw countField.orElseThrow().error(over(pods, "pods", max, "--max-pods"));
      }
    }
  }

  static String over(long total, String what, int max, String flag) {
    return "the scenario would have " + total + " " + what + limit(max, flag);
  }

  private static String limit(int max, String flag) {
    return ", more than the limit of " + max + " (raise it with " + flag + ")";
  }
}
