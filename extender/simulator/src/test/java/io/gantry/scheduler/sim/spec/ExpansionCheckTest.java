package io.gantry.scheduler.sim.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gantry.kubemodel.read.ScenarioException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Node and pod totals are checked after expansion, blaming the field that passes the limit. */
class ExpansionCheckTest {
  /** Three lines, so the body of a case starts on line 4. */
  private static final String HEADER =
      "apiVersion: gantry.io/v1alpha1\nkind: Scenario\nmetadata: {name: big}\n";

  /** HEADER, one node and a queue, so a case's {@code jobs:} starts on line 7. */
  private static final String CLUSTER = HEADER + "nodes: [{name: n}]\nqueues:\n  - {name: q}\n";

  private static final ScenarioLimits SMALL = new ScenarioLimits(3, 5);

  record Case(String name, String yaml, String expected) {
    @Override
    public String toString() {
      return name;
    }
  }

  static List<Case> over() {
    return List.of(
        new Case(
            "a node without count past the total",
            HEADER + "nodes:\n  - {name: a, count: 2}\n  - {name: b}\n  - {name: c}\n",
            "big.yaml:7: nodes[2]: the scenario would have 4 nodes, more than the limit of 3"
                + " (raise it with --max-nodes)"),
        new Case(
            "a node count past the total",
            HEADER + "nodes:\n  - {name: a}\n  - {name: b, count: 3}\n",
            "big.yaml:6: nodes[1].count: the scenario would have 4 nodes, more than the limit of 3"
                + " (raise it with --max-nodes)"),
        new Case(
            "a task without replicas past the total",
            CLUSTER
                + "jobs:\n"
                + "  - {name: a, queue: q, tasks: [{name: t, replicas: 3}]}\n"
                + "  - {name: b, queue: q, count: 2, tasks: [{name: t}]}\n"
                + "  - {name: c, queue: q, tasks: [{name: t}]}\n",
            "big.yaml:10: jobs[2].tasks[0]: the scenario would have 6 pods, more than the limit of"
                + " 5 (raise it with --max-pods)"),
        new Case(
            "replicas past the total",
            CLUSTER
                + "jobs:\n"
                + "  - name: a\n"
                + "    queue: q\n"
                + "    tasks:\n"
                + "      - {name: t, replicas: 4}\n"
                + "      - {name: u, replicas: 2}\n",
            "big.yaml:12: jobs[0].tasks[1].replicas: the scenario would have 6 pods, more than the"
                + " limit of 5 (raise it with --max-pods)"),
        new Case(
            "a job count multiplies its pods",
            CLUSTER + "jobs:\n  - {name: a, queue: q, count: 3, tasks: [{name: t, replicas: 2}]}\n",
            "big.yaml:8: jobs[0].count: the scenario would have 6 pods, more than the limit of 5"
                + " (raise it with --max-pods)"),
        new Case(
            "a job with count 0 still names one copy's tasks",
            CLUSTER + "jobs:\n  - {name: a, queue: q, count: 0, tasks: [{name: t, replicas: 6}]}\n",
            "big.yaml:8: jobs[0].tasks[0].replicas: one copy of this job would have 6 pods, more"
                + " than the limit of 5 (raise it with --max-pods)"),
        new Case(
            "a count that is not an integer is reported as the binder would",
            HEADER + "nodes:\n  - {name: a, count: many}\n",
            "big.yaml:5: nodes[0].count: expected an integer, got \"many\""),
        new Case(
            "replicas below the minimum are reported as the binder would",
            CLUSTER + "jobs:\n  - {name: a, queue: q, tasks: [{name: t, replicas: -1}]}\n",
            "big.yaml:8: jobs[0].tasks[0].replicas: must be >= 0, got -1"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("over")
  void rejects(Case c) {
    assertThatThrownBy(() -> ScenarioLoader.parse("big.yaml", c.yaml(), SMALL))
        .isInstanceOf(ScenarioException.class)
        .hasMessage(c.expected());
  }

  @Test
  void acceptsExactlyTheLimits() throws ScenarioException {
    String yaml =
        HEADER
            + "nodes:\n  - {name: a, count: 2}\n  - {name: b}\n"
            + "queues: [{name: q}]\n"
            + "jobs:\n"
            + "  - {name: a, queue: q, count: 2, tasks: [{name: t, replicas: 2}]}\n"
            + "  - {name: b, queue: q, count: 0, tasks: [{name: t, replicas: 5}]}\n"
            + "  - {name: c, queue: q, tasks: [{name: t}]}\n";

    ScenarioSpec scenario = ScenarioLoader.parse("big.yaml", yaml, SMALL);

    assertThat(scenario.nodes()).hasSize(2);
    assertThat(scenario.jobs()).hasSize(3);
  }

  @Test
  void limitsMustBePositive() {
    assertThatThrownBy(() -> new ScenarioLimits(0, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("maxNodes must be >= 1, got 0");
    assertThatThrownBy(() -> new ScenarioLimits(1, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("maxPods must be >= 1, got 0");
  }
}
