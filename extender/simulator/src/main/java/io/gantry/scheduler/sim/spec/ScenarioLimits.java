package io.gantry.scheduler.sim.spec;

/**
 * How large a scenario may be once every {@code count} and {@code replicas} is expanded. The loader
 * checks the totals before it builds anything, so that {@code count: 2000000000} is an error naming
 * that field rather than a process out of memory. {@code gantry simulate} sets them with {@code
 * --max-nodes} and {@code --max-pods}.
 *
 * @param maxNodes the most nodes, counted after {@code nodes[].count}
 * @param maxPods the most pods (tasks), counted after {@code jobs[].count} and {@code
 *     tasks[].replicas}; a job has at least one pod, so this bounds the jobs too
 */
public record ScenarioLimits(int maxNodes, int maxPods) {
  /** Room for a replay of a large real cluster: 50,000 nodes is past Kubernetes' own limit. */
  public static final int DEFAULT_MAX_NODES = 50_000;

  /** A million pods: ten times Kubernetes' tested maximum of 150,000. */
  public static final int DEFAULT_MAX_PODS = 1_000_000;

  public static final ScenarioLimits DEFAULT =
      new ScenarioLimits(DEFAULT_MAX_NODES, DEFAULT_MAX_PODS);

  public ScenarioLimits {
    if (maxNodes < 1) {
      throw new IllegalArgumentException("maxNodes must be >= 1, got " + maxNodes);
    }
    if (maxPods < 1) {
      throw new IllegalArgumentException("maxPods must be >= 1, got " + maxPods);
    }
  }
}
