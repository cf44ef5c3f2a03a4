package io.gantry.scheduler.sim.spec;

import java.util.List;

/** The jobs a scenario's workloads became, as text the workload tests pin. */
final class WorkloadText {
  /** HEADER plus nodes and queues, eight lines, so a case's {@code workloads:} is on line 12. */
  static final String CLUSTER =
      """
      apiVersion: gantry.io/v1alpha1
      kind: Scenario
      metadata: {name: w}
      nodes:
        - {name: n, gpus: 8, cpu: "64", memory: 512Gi}
      queues:
        - {name: root}
        - {name: default-queue, parent: root}
        - {name: team, parent: root}
      config: {}
      """;

  private WorkloadText() {}

  /** Each job: its gang, queue, class and SubGroups; each task: pod name, leaf, requests. */
  static String of(List<JobSpec> jobs) {
    StringBuilder out = new StringBuilder();
    for (JobSpec j : jobs) {
      out.append(j.namespace()).append('/').append(j.name());
      j.minMember().ifPresent(m -> out.append(" minMember=").append(m));
      j.minSubGroup().ifPresent(m -> out.append(" minSubGroup=").append(m));
      out.append(" queue=").append(j.queue());
      j.priorityClass().ifPresent(c -> out.append(" class=").append(c));
      j.preemptibility().ifPresent(p -> out.append(" preemptibility=").append(p.k8sName()));
      out.append('\n');
      for (SubGroupSpec s : j.subGroups()) {
        out.append("  subGroup ").append(s.name());
        s.parent().ifPresent(p -> out.append(" parent=").append(p));
        s.minMember().ifPresent(m -> out.append(" minMember=").append(m));
        s.minSubGroup().ifPresent(m -> out.append(" minSubGroup=").append(m));
        out.append('\n');
      }
      for (TaskSpec t : j.tasks()) {
        out.append("  pod ").append(t.podName().orElse(t.name()));
        t.subGroup().ifPresent(s -> out.append(" [").append(s).append(']'));
        out.append(' ').append(t.resources());
        t.gpuFraction().ifPresent(f -> out.append(" gpu-fraction=").append(f));
        if (t.status() != InitialTaskStatus.PENDING) {
          out.append(' ').append(t.status().yamlName());
        }
        out.append('\n');
      }
    }
    return out.toString();
  }

  /** {@code manifest} as the one entry of {@code workloads}. */
  static String scenario(String manifest) {
    StringBuilder out = new StringBuilder(CLUSTER).append("workloads:\n  -\n");
    for (String line : manifest.split("\n", -1)) {
      out.append(line.isEmpty() ? "" : "    " + line).append('\n');
    }
    return out.toString();
  }
}
