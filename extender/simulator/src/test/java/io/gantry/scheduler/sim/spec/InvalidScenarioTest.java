package io.gantry.scheduler.sim.spec;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gantry.kubemodel.read.ScenarioException;
import io.gantry.scheduler.sim.Simulator;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each invalid input is reported with its file, line and field path, whether the loader or KAI's
 * object rules (applied when the scenario is compiled) reject it.
 */
class InvalidScenarioTest {
  /** Three lines, so the body of a case starts on line 4. */
  private static final String HEADER =
      "apiVersion: gantry.io/v1alpha1\nkind: Scenario\nmetadata: {name: bad}\n";

  /** HEADER plus six lines of nodes and queues, so a case's {@code jobs:} starts on line 10. */
  private static final String CLUSTER =
      HEADER
          + """
          nodes:
            - {name: dgx, count: 2, gpus: 8}
            - {name: cpu-node}
          queues:
            - {name: root}
            - {name: team, parent: root}
          """;

  record Case(String name, String yaml, String expected) {
    @Override
    public String toString() {
      return name;
    }
  }

  static List<Case> cases() {
    return List.of(
        // Structure and syntax.
        new Case(
            "empty document",
            "",
            "bad.yaml:1: expected a mapping at the top level, got an empty document"),
        new Case(
            "top level is a list",
            "- a\n- b\n",
            "bad.yaml:1: expected a mapping at the top level, got a list"),
        new Case(
            "YAML syntax error",
            HEADER + "nodes: [a, b\nqueues: []\n",
            "bad.yaml:5: invalid YAML: expected ',' or ']', but got :"),
        new Case(
            "second document",
            HEADER + "---\na: 1\n",
            "bad.yaml:5: expected one YAML document, found another"),
        new Case(
            "duplicate key",
            HEADER + "nodes:\n  - name: a\n    gpus: 1\n    gpus: 2\n",
            "bad.yaml:7: nodes[0].gpus: duplicate key (already set on line 6)"),
        new Case(
            "nesting past the depth limit",
            HEADER + "nodes: " + "[".repeat(5000) + "]".repeat(5000) + "\n",
            "bad.yaml:4: mappings and lists nest more than 100 levels deep here"),
        new Case(
            "alias",
            HEADER + "nodes:\n  - &n {name: a}\n  - *n\n",
            "bad.yaml:6: nodes[1]: YAML aliases (*name) are not supported"),
        new Case(
            "wrong apiVersion",
            "apiVersion: v1\nkind: Scenario\nmetadata: {name: bad}\n",
            "bad.yaml:1: apiVersion: expected gantry.io/v1alpha1, got \"v1\""),
        new Case(
            "wrong kind",
            "apiVersion: gantry.io/v1alpha1\nkind: Pod\nmetadata: {name: bad}\n",
            "bad.yaml:2: kind: expected Scenario, got \"Pod\""),
        new Case(
            "missing metadata.name",
            "apiVersion: gantry.io/v1alpha1\nkind: Scenario\nmetadata:\n  description: x\n",
            "bad.yaml:4: metadata.name: is required"),
        new Case(
            "missing metadata",
            "apiVersion: gantry.io/v1alpha1\nkind: Scenario\n",
            "bad.yaml:1: metadata: is required"),

        // Unknown fields, at every depth.
        new Case(
            "unknown top-level field", HEADER + "extra: 1\n", "bad.yaml:4: extra: unknown field"),
        new Case(
            "unknown node field",
            HEADER + "nodes:\n  - name: n\n    gpuz: 8\n",
            "bad.yaml:6: nodes[0].gpuz: unknown field"),
        new Case(
            "unknown plugin field",
            HEADER + "config:\n  plugins:\n    proportion: {argz: {kValue: 1}}\n",
            "bad.yaml:6: config.plugins.proportion.argz: unknown field"),
        new Case(
            "unknown queue resource",
            HEADER + "queues:\n  - name: q\n    resources: {gpus: {quota: 1}}\n",
            "bad.yaml:6: queues[0].resources.gpus: unknown field"),
        new Case(
            "unknown task field",
            CLUSTER
                + "jobs:\n  - name: j\n    queue: team\n    tasks:\n      - {name: t, gpu: 1}\n",
            "bad.yaml:14: jobs[0].tasks[0].gpu: unknown field"),
        new Case(
            "unknown affinity field",
            CLUSTER
                + "jobs:\n  - name: j\n    queue: team\n    tasks:\n      - name: t\n"
                + "        affinity: {nodeAffinity: {required: {}}}\n",
            "bad.yaml:15: jobs[0].tasks[0].affinity.nodeAffinity.required: unknown field"),
        new Case(
            "unknown expect field",
            CLUSTER + "expect:\n  nodes:\n    dgx-0: {idle: 1}\n",
            "bad.yaml:12: expect.nodes.dgx-0.idle: unknown field"),

        // Scalar types.
        new Case(
            "quota is not a number",
            HEADER + "queues:\n  - name: q\n    resources:\n      gpu: {quota: lots}\n",
            "bad.yaml:7: queues[0].resources.gpu.quota: expected a number, got \"lots\""),
        new Case(
            "gpus is not an integer",
            HEADER + "nodes:\n  - {name: n, gpus: 2.5}\n",
            "bad.yaml:5: nodes[0].gpus: expected an integer, got 2.5"),
        new Case(
            "quoted boolean",
            HEADER + "nodes:\n  - {name: n, ready: \"true\"}\n",
            "bad.yaml:5: nodes[0].ready: expected true or false, got \"true\""),
        new Case(
            "mapping where a list belongs",
            HEADER + "nodes: {name: n}\n",
            "bad.yaml:4: nodes: expected a list, got a mapping"),
        new Case(
            "list where a string belongs",
            CLUSTER + "jobs:\n  - {name: [a], queue: team, tasks: [{name: t}]}\n",
            "bad.yaml:11: jobs[0].name: expected a string, got a list"),
        new Case(
            "plugin argument is a mapping",
            HEADER + "config:\n  plugins:\n    proportion:\n      arguments: {kValue: {a: 1}}\n",
            "bad.yaml:7: config.plugins.proportion.arguments.kValue:"
                + " expected a string, number or boolean, got a mapping"),

        // Quantities and durations.
        new Case(
            "bad quantity",
            HEADER + "nodes:\n  - {name: n, cpu: lots}\n",
            "bad.yaml:5: nodes[0].cpu: expected a quantity such as 500m, 8 or 64Gi, got \"lots\""),
        new Case(
            "sub-millicore cpu",
            HEADER + "nodes:\n  - {name: n, cpu: \"0.0001\"}\n",
            "bad.yaml:5: nodes[0].cpu: must be a whole number of millicores, got 0.0001"),
        new Case(
            "fractional extended resource",
            CLUSTER
                + "jobs:\n  - name: j\n    queue: team\n    tasks:\n"
                + "      - {name: t, resources: {nvidia.com/gpu: 0.5}}\n",
            "bad.yaml:14: jobs[0].tasks[0].resources.nvidia.com/gpu: must be a whole number, got"
                + " 0.5"),
        new Case(
            "negative memory",
            HEADER + "nodes:\n  - {name: n, memory: -1Gi}\n",
            "bad.yaml:5: nodes[0].memory: must be >= 0, got -1073741824"),
        new Case(
            "bad duration",
            HEADER + "queues:\n  - {name: q, createdAt: 10 minutes}\n",
            "bad.yaml:5: queues[0].createdAt: expected a duration such as 90s, 10m or 1h30m,"
                + " got \"10 minutes\" (unknown unit \" minutes\")"),
        new Case(
            "duration without unit",
            HEADER + "queues:\n  - {name: q, reclaimMinRuntime: 30}\n",
            "bad.yaml:5: queues[0].reclaimMinRuntime: expected a duration such as 90s, 10m or"
                + " 1h30m, got \"30\" (missing unit)"),
        new Case(
            "negative min runtime",
            HEADER + "queues:\n  - {name: q, preemptMinRuntime: -1m}\n",
            "bad.yaml:5: queues[0].preemptMinRuntime: must be >= 0s, got -1m"),

        // Config.
        new Case(
            "cycles below 1",
            HEADER + "config:\n  cycles: 0\n",
            "bad.yaml:5: config.cycles: must be >= 1, got 0"),
        new Case(
            "unknown placement",
            HEADER + "config:\n  placement: {gpu: pack}\n",
            "bad.yaml:5: config.placement.gpu: expected one of binpack, spread,"
                + " fragmentation-aware, random, best-fit, dot-product, gpu-packing, got \"pack\""),
        new Case(
            "unknown action",
            HEADER + "config:\n  actions: [allocate, backfill]\n",
            "bad.yaml:5: config.actions[1]: expected one of allocate, consolidation, reclaim,"
                + " preempt, stalegangeviction, got \"backfill\""),
        new Case(
            "maxConsolidationPreemptees below -1",
            HEADER + "config:\n  maxConsolidationPreemptees: -2\n",
            "bad.yaml:5: config.maxConsolidationPreemptees: must be >= -1, got -2"),

        // Nodes.
        new Case(
            "node count 0",
            HEADER + "nodes:\n  - {name: n, count: 0}\n",
            "bad.yaml:5: nodes[0].count: must be >= 1, got 0"),
        new Case(
            "duplicate node after expansion",
            HEADER + "nodes:\n  - {name: n, count: 2}\n  - {name: n-1}\n",
            "bad.yaml:6: nodes[1].name: duplicate node name \"n-1\" (already defined on line 5)"),
        new Case(
            "a GPU index past the node's GPUs",
            HEADER + "nodes:\n  - {name: n, gpus: 8, gpuTopology: [[0, 1, 2, 3], [4, 5, 6, 8]]}\n",
            "bad.yaml:5: nodes[0].gpuTopology[1][3]: GPU index 8 is out of range: the node has 8"
                + " GPUs (0..7)"),
        new Case(
            "a GPU in two interconnect groups",
            HEADER + "nodes:\n  - {name: n, gpus: 8, gpuTopology: [[0, 1, 2, 3], [3, 4]]}\n",
            "bad.yaml:5: nodes[0].gpuTopology[1][0]: GPU index 3 is in two groups (a GPU belongs to"
                + " one domain)"),
        new Case(
            "an empty interconnect group",
            HEADER + "nodes:\n  - {name: n, gpus: 8, gpuTopology: [[0, 1], []]}\n",
            "bad.yaml:5: nodes[0].gpuTopology[1]: expected a non-empty list of GPU indices sharing a"
                + " fast link"),
        new Case(
            "unknown mig strategy",
            HEADER + "nodes:\n  - {name: n, migStrategy: MIXED}\n",
            "bad.yaml:5: nodes[0].migStrategy: expected one of none, single, mixed, got \"MIXED\""),
        new Case(
            "bad taint effect",
            HEADER + "nodes:\n  - name: n\n    taints: [{key: k, effect: NoRun}]\n",
            "bad.yaml:6: nodes[0].taints[0].effect:"
                + " expected one of NoSchedule, PreferNoSchedule, NoExecute, got \"NoRun\""),
        new Case(
            "hostname label with another name",
            HEADER + "nodes:\n  - name: n\n    labels: {kubernetes.io/hostname: x}\n",
            "bad.yaml:6: nodes[0].labels.kubernetes.io/hostname: must be the node's name \"n\","
                + " got \"x\" (every node carries its own name under this label)"),
        new Case(
            "hostname label on a counted node",
            HEADER + "nodes:\n  - name: n\n    count: 3\n    labels: {kubernetes.io/hostname: n}\n",
            "bad.yaml:7: nodes[0].labels.kubernetes.io/hostname: must be left out with count 3:"
                + " each node carries its own name (n-0 ... n-2) under this label"),
        new Case(
            "gpus past the integer range states that range",
            HEADER + "nodes:\n  - {name: n, gpus: 99999999999999999999}\n",
            "bad.yaml:5: nodes[0].gpus: must be <= 2147483647, got 99999999999999999999"),
        new Case(
            "memory past the long range states that range",
            HEADER + "nodes:\n  - {name: n, memory: 100E}\n",
            "bad.yaml:5: nodes[0].memory: must be <= 9223372036854775807, got"
                + " 100000000000000000000"),
        new Case(
            "cpu past the long range of millicores states it in cores",
            HEADER + "nodes:\n  - {name: n, cpu: 10P}\n",
            "bad.yaml:5: nodes[0].cpu: must be <= 9223372036854775.807, got 10000000000000000"),
        new Case(
            "node count past the node limit",
            HEADER + "nodes:\n  - {name: n, count: 2000000000}\n",
            "bad.yaml:5: nodes[0].count: the scenario would have 2000000000 nodes, more than the"
                + " limit of 50000 (raise it with --max-nodes)"),
        new Case(
            "gpus in extended",
            HEADER + "nodes:\n  - name: n\n    extended: {nvidia.com/gpu: 8}\n",
            "bad.yaml:6: nodes[0].extended.nvidia.com/gpu: set this with the node's gpus field"),

        // Queues.
        new Case(
            "duplicate queue",
            HEADER + "queues:\n  - {name: q}\n  - {name: q}\n",
            "bad.yaml:6: queues[1].name: duplicate queue name \"q\" (already defined on line 5)"),
        new Case(
            "unknown parent queue",
            HEADER + "queues:\n  - {name: a}\n  - name: b\n    parent: nope\n",
            "bad.yaml:7: queues[1].parent: parent queue \"nope\" of queue \"b\" does not exist"),
        new Case(
            "queue cycle",
            HEADER
                + "queues:\n  - {name: top}\n  - {name: a, parent: b}\n  - {name: b, parent: a}\n",
            "bad.yaml:6: queues[1].parent: queue \"a\" is in a cycle: a -> b -> a"),
        new Case(
            "queue is its own parent",
            HEADER + "queues:\n  - {name: a, parent: a}\n",
            "bad.yaml:5: queues[0].parent: queue \"a\" is in a cycle: a -> a"),
        new Case(
            "quota below -1",
            HEADER + "queues:\n  - name: q\n    resources: {gpu: {quota: -2}}\n",
            "bad.yaml:6: queues[0].resources.gpu.quota: must be >= -1, got -2"),

        // Jobs.
        new Case(
            "job in a non-leaf queue",
            CLUSTER + "jobs:\n  - name: j\n    queue: root\n    tasks: [{name: t}]\n",
            "bad.yaml:12: jobs[0].queue: queue \"root\" is not a leaf queue"
                + " (it is the parent of \"team\"); jobs go to leaf queues"),
        new Case(
            "job in an unknown queue",
            CLUSTER + "jobs:\n  - name: j\n    queue: nope\n    tasks: [{name: t}]\n",
            "bad.yaml:12: jobs[0].queue: unknown queue \"nope\""),
        new Case(
            "job without queue",
            CLUSTER + "jobs:\n  - name: j\n    tasks: [{name: t}]\n",
            "bad.yaml:11: jobs[0].queue: is required"),
        new Case(
            "negative job count",
            CLUSTER + "jobs:\n  - {name: j, queue: team, count: -1, tasks: [{name: t}]}\n",
            "bad.yaml:11: jobs[0].count: must be >= 0, got -1"),
        new Case(
            "duplicate job after expansion",
            CLUSTER
                + "jobs:\n  - {name: j-2, queue: team, tasks: [{name: t}]}\n"
                + "  - {name: j, count: 3, queue: team, tasks: [{name: t}]}\n",
            "bad.yaml:12: jobs[1].name: duplicate job name \"j-2\" (already defined on line 11)"),
        new Case(
            "unknown priority class",
            CLUSTER
                + "jobs:\n  - {name: j, queue: team, priorityClass: urgent, tasks: [{name: t}]}\n",
            "bad.yaml:11: jobs[0].priorityClass: unknown priority class \"urgent\""
                + " (known: train, build-preemptible, build, inference)"),
        new Case(
            "priorityClass with priority",
            CLUSTER
                + "jobs:\n"
                + "  - name: j\n"
                + "    queue: team\n"
                + "    priorityClass: train\n"
                + "    priority: 10\n"
                + "    tasks: [{name: t}]\n",
            "bad.yaml:14: jobs[0].priority: cannot be set together with priorityClass"),
        new Case(
            "unknown preemptibility",
            CLUSTER
                + "jobs:\n  - {name: j, queue: team, preemptibility: yes, tasks: [{name: t}]}\n",
            "bad.yaml:11: jobs[0].preemptibility: expected one of preemptible, non-preemptible, got"
                + " \"yes\""),
        new Case(
            "minMember with minSubGroup",
            CLUSTER
                + "jobs:\n  - name: j\n    queue: team\n    minMember: 2\n    minSubGroup: 1\n"
                + "    subGroups: [{name: a}]\n    tasks: [{name: t, subGroup: a}]\n",
            "bad.yaml:14: jobs[0].minSubGroup: cannot be set together with minMember"),
        new Case(
            "minSubGroup without subGroups",
            CLUSTER + "jobs:\n  - {name: j, queue: team, minSubGroup: 1, tasks: [{name: t}]}\n",
            "bad.yaml:11: jobs[0].minSubGroup: requires subGroups"),
        new Case(
            "no tasks",
            CLUSTER + "jobs:\n  - {name: j, queue: team, tasks: []}\n",
            "bad.yaml:11: jobs[0].tasks: a job needs at least one task"),
        new Case(
            "every task has replicas 0",
            CLUSTER
                + "jobs:\n  - name: j\n    queue: team\n    tasks:\n"
                + "      - {name: a, replicas: 0}\n      - {name: b, replicas: 0}\n",
            "bad.yaml:13: jobs[0].tasks: a job needs at least one task; every entry here has"
                + " replicas: 0"),
        new Case(
            "a counted job without pods fails before its copies are named",
            CLUSTER
                + "jobs:\n  - {name: j, queue: team, count: 2000000000,"
                + " tasks: [{name: t, replicas: 0}]}\n",
            "bad.yaml:11: jobs[0].tasks: a job needs at least one task; every entry here has"
                + " replicas: 0"),
        new Case(
            "job count past the pod limit",
            CLUSTER + "jobs:\n  - {name: j, queue: team, count: 2000000000, tasks: [{name: t}]}\n",
            "bad.yaml:11: jobs[0].count: the scenario would have 2000000000 pods, more than the"
                + " limit of 1000000 (raise it with --max-pods)"),
        new Case(
            "unknown topology",
            CLUSTER
                + "jobs:\n  - name: j\n    queue: team\n    topologyConstraint: {topology: dc}\n"
                + "    tasks: [{name: t}]\n",
            "bad.yaml:13: jobs[0].topologyConstraint.topology: unknown topology \"dc\""),
        new Case(
            "unknown topology level",
            HEADER
                + "topologies:\n  - {name: dc, levels: [{nodeLabel: rack}]}\n"
                + "queues: [{name: q}]\n"
                + "jobs:\n  - name: j\n    queue: q\n"
                + "    topologyConstraint: {topology: dc, requiredTopologyLevel: zone}\n"
                + "    tasks: [{name: t}]\n",
            "bad.yaml:10: jobs[0].topologyConstraint.requiredTopologyLevel:"
                + " topology \"dc\" has no level \"zone\" (levels: rack)"),

        // Subgroups.
        new Case(
            "subgroup with unknown parent",
            CLUSTER
                + "jobs:\n  - name: j\n    queue: team\n    subGroups:\n"
                + "      - {name: a, parent: nope}\n    tasks: [{name: t, subGroup: a}]\n",
            "bad.yaml:14: jobs[0].subGroups[0].parent: unknown subgroup \"nope\""),
        new Case(
            "duplicate subgroup",
            CLUSTER
                + "jobs:\n  - name: j\n    queue: team\n    subGroups:\n"
                + "      - {name: a}\n      - {name: a}\n    tasks: [{name: t, subGroup: a}]\n",
            "bad.yaml:15: jobs[0].subGroups[1].name: duplicate subgroup name \"a\""
                + " (already defined on line 14)"),
        new Case(
            "subgroup cycle",
            CLUSTER
                + "jobs:\n  - name: j\n    queue: team\n    subGroups:\n"
                + "      - {name: a, parent: b}\n      - {name: b, parent: a}\n"
                + "    tasks: [{name: t}]\n",
            "bad.yaml:14: jobs[0].subGroups[0].parent: subgroup \"a\" is in a cycle: a -> b -> a"),
        new Case(
            "subgroup parent listed after its child",
            CLUSTER
                + "jobs:\n  - name: j\n    queue: team\n    subGroups:\n"
                + "      - {name: a, parent: b}\n      - {name: b, minSubGroup: 1}\n"
                + "    tasks: [{name: t, subGroup: a}]\n",
            "bad.yaml:14: jobs[0].subGroups[0].parent: subgroup \"b\" must be listed before its"
                + " child \"a\""),
        new Case(
            "task in an unknown subgroup",
            CLUSTER
                + "jobs:\n  - name: j\n    queue: team\n    subGroups: [{name: a}]\n"
                + "    tasks: [{name: t, subGroup: b}]\n",
            "bad.yaml:14: jobs[0].tasks[0].subGroup: unknown subgroup \"b\""),
        new Case(
            "task in an inner subgroup",
            CLUSTER
                + "jobs:\n  - name: j\n    queue: team\n    subGroups:\n"
                + "      - {name: a}\n      - {name: b, parent: a}\n"
                + "    tasks: [{name: t, subGroup: a}]\n",
            "bad.yaml:16: jobs[0].tasks[0].subGroup: subgroup \"a\" has child subgroups;"
                + " tasks go to leaf subgroups"),
        new Case(
            "minSubGroup on a leaf subgroup",
            CLUSTER
                + "jobs:\n  - name: j\n    queue: team\n    subGroups:\n"
                + "      - {name: a, minSubGroup: 1}\n    tasks: [{name: t, subGroup: a}]\n",
            "bad.yaml:14: jobs[0].subGroups[0].minSubGroup:"
                + " only a SubGroup with child SubGroups can set minSubGroup"),
        new Case(
            "minMember on an inner subgroup",
            CLUSTER
                + "jobs:\n  - name: j\n    queue: team\n    subGroups:\n"
                + "      - {name: a, minMember: 2}\n      - {name: b, parent: a}\n"
                + "    tasks: [{name: t, subGroup: b}]\n",
            "bad.yaml:14: jobs[0].subGroups[0].minMember: SubGroup \"a\" has child SubGroups;"
                + " set minSubGroup instead"),

        // Tasks.
        new Case(
            "negative replicas",
            CLUSTER
                + "jobs:\n"
                + "  - name: j\n"
                + "    queue: team\n"
                + "    tasks:\n"
                + "      - {name: t, replicas: -1}\n",
            "bad.yaml:14: jobs[0].tasks[0].replicas: must be >= 0, got -1"),
        new Case(
            "replicas past the pod limit",
            CLUSTER
                + "jobs:\n  - name: j\n    queue: team\n    tasks:\n"
                + "      - {name: t, replicas: 2000000000}\n",
            "bad.yaml:14: jobs[0].tasks[0].replicas: the scenario would have 2000000000 pods, more"
                + " than the limit of 1000000 (raise it with --max-pods)"),
        new Case(
            "duplicate task after expansion",
            CLUSTER
                + "jobs:\n  - name: j\n    queue: team\n    tasks:\n"
                + "      - {name: w, replicas: 2}\n      - {name: w-0}\n",
            "bad.yaml:15: jobs[0].tasks[1].name: duplicate task name \"w-0\" (already defined on"
                + " line 14)"),
        new Case(
            "unknown task node",
            CLUSTER
                + "jobs:\n  - name: j\n    queue: team\n    tasks:\n"
                + "      - {name: t, status: Running, node: dgx}\n",
            "bad.yaml:14: jobs[0].tasks[0].node: unknown node \"dgx\""),
        new Case(
            "running task without node",
            CLUSTER
                + "jobs:\n"
                + "  - name: j\n"
                + "    queue: team\n"
                + "    tasks:\n"
                + "      - name: t\n"
                + "        status: Running\n",
            "bad.yaml:15: jobs[0].tasks[0].node: is required for a task with status Running"),
        new Case(
            "unknown task status",
            CLUSTER
                + "jobs:\n"
                + "  - name: j\n"
                + "    queue: team\n"
                + "    tasks:\n"
                + "      - {name: t, status: Binding}\n",
            "bad.yaml:14: jobs[0].tasks[0].status: expected one of Pending, Gated, Running, Bound,"
                + " Pipelined, Releasing, StuckInReleasing, Succeeded, Failed, got \"Binding\""),
        new Case(
            "gpu fraction above 1",
            CLUSTER
                + "jobs:\n"
                + "  - name: j\n"
                + "    queue: team\n"
                + "    tasks:\n"
                + "      - {name: t, gpuFraction: 1.5}\n",
            "bad.yaml:14: jobs[0].tasks[0].gpuFraction: gpu-fraction annotation value must be a"
                + " positive number smaller than 1.0"),
        new Case(
            "gpu fraction with gpu memory",
            CLUSTER
                + "jobs:\n  - name: j\n    queue: team\n    tasks:\n"
                + "      - {name: t, gpuFraction: 0.5, gpuMemory: 1000}\n",
            "bad.yaml:14: jobs[0].tasks[0].gpuMemory: cannot request both GPU and GPU memory"),
        new Case(
            "gpuFractionNumDevices without a fraction",
            CLUSTER
                + "jobs:\n  - name: j\n    queue: team\n    tasks:\n"
                + "      - {name: t, gpuFractionNumDevices: 2}\n",
            "bad.yaml:14: jobs[0].tasks[0].gpuFractionNumDevices: cannot request multiple fractional"
                + " devices without specifying fraction portion or gpu-memory"),
        new Case(
            "toleration Exists with a value",
            CLUSTER
                + "jobs:\n  - name: j\n    queue: team\n    tasks:\n      - name: t\n"
                + "        tolerations: [{key: k, operator: Exists, value: v}]\n",
            "bad.yaml:15: jobs[0].tasks[0].tolerations[0].value: must be empty when operator is"
                + " Exists"),
        new Case(
            "node affinity In without values",
            CLUSTER
                + "jobs:\n  - name: j\n    queue: team\n    tasks:\n      - name: t\n"
                + "        affinity:\n          nodeAffinity:\n"
                + "            requiredDuringSchedulingIgnoredDuringExecution:\n"
                + "              nodeSelectorTerms:\n"
                + "                - matchExpressions: [{key: zone, operator: In}]\n",
            "bad.yaml:19: jobs[0].tasks[0].affinity.nodeAffinity."
                + "requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]"
                + ".matchExpressions[0].values: must not be empty for operator In"),
        new Case(
            "pod affinity without topologyKey",
            CLUSTER
                + "jobs:\n  - name: j\n    queue: team\n    tasks:\n      - name: t\n"
                + "        affinity:\n          podAntiAffinity:\n"
                + "            requiredDuringSchedulingIgnoredDuringExecution:\n"
                + "              - labelSelector: {matchLabels: {app: a}}\n",
            "bad.yaml:18: jobs[0].tasks[0].affinity.podAntiAffinity."
                + "requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: is required"),

        // Expectations.
        new Case(
            "expect names an unknown job",
            CLUSTER
                + "jobs:\n"
                + "  - {name: j, queue: team, tasks: [{name: t}]}\n"
                + "expect:\n"
                + "  jobs:\n"
                + "    k: {status: Running}\n",
            "bad.yaml:14: expect.jobs.k: unknown job \"k\""),
        new Case(
            "expect names a counted job by its base name",
            CLUSTER
                + "jobs:\n  - {name: sweep, count: 4, queue: team, tasks: [{name: t}]}\n"
                + "expect:\n  jobs:\n    sweep: {status: Running}\n",
            "bad.yaml:14: expect.jobs.sweep: unknown job \"sweep\""
                + " (a job with count 4 is named sweep-0 ... sweep-3)"),
        new Case(
            "expect names an unknown task",
            CLUSTER
                + "jobs:\n  - {name: j, queue: team, tasks: [{name: w, replicas: 2}]}\n"
                + "expect:\n  tasks:\n    j/w-2: {status: Running}\n",
            "bad.yaml:14: expect.tasks.j/w-2: job \"j\" has no task \"w-2\""),
        new Case(
            "expect task key without a slash",
            CLUSTER
                + "jobs:\n  - {name: j, queue: team, tasks: [{name: t}]}\n"
                + "expect:\n  tasks:\n    t: {status: Running}\n",
            "bad.yaml:14: expect.tasks.t: expected job/task, got \"t\""),
        new Case(
            "expect names an unknown queue",
            CLUSTER + "expect:\n  queues:\n    nope: {allocated: {gpu: 1}}\n",
            "bad.yaml:12: expect.queues.nope: unknown queue \"nope\""),
        new Case(
            "expect names an unknown node",
            CLUSTER + "expect:\n  nodes:\n    dgx: {idleGpus: 1}\n",
            "bad.yaml:12: expect.nodes.dgx: unknown node \"dgx\""),
        new Case(
            "expect job on an unknown node",
            CLUSTER
                + "jobs:\n  - {name: j, queue: team, tasks: [{name: t}]}\n"
                + "expect:\n  jobs:\n    j: {nodes: [dgx-0, dgx-2]}\n",
            "bad.yaml:14: expect.jobs.j.nodes[1]: unknown node \"dgx-2\""),
        new Case(
            "expect unknown status",
            CLUSTER
                + "jobs:\n  - {name: j, queue: team, tasks: [{name: t}]}\n"
                + "expect:\n  jobs:\n    j: {status: Done}\n",
            "bad.yaml:14: expect.jobs.j.status: expected one of Pending, Gated, Binding, Pipelined,"
                + " Running, Releasing, StuckInReleasing, Succeeded, Failed, Mixed, got \"Done\""),
        new Case(
            "expect Mixed for a task",
            CLUSTER
                + "jobs:\n  - {name: j, queue: team, tasks: [{name: t}]}\n"
                + "expect:\n  tasks:\n    j/t: {status: Mixed}\n",
            "bad.yaml:14: expect.tasks.j/t.status: expected one of Pending, Gated, Binding,"
                + " Pipelined, Running, Releasing, StuckInReleasing, Succeeded, Failed, got"
                + " \"Mixed\""),
        new Case(
            "expect unknown task status count",
            CLUSTER
                + "jobs:\n  - {name: j, queue: team, tasks: [{name: t}]}\n"
                + "expect:\n  jobs:\n    j:\n      taskStatuses: {Done: 1}\n",
            "bad.yaml:15: expect.jobs.j.taskStatuses.Done: unknown task status, expected one of"
                + " Pending, Gated, Binding, Pipelined, Running, Releasing, StuckInReleasing,"
                + " Succeeded, Failed"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void rejects(Case c) {
    // as gantry simulate does: load, then compile (where the engine applies KAI's object rules)
    assertThatThrownBy(
            () ->
                new Simulator()
                    .run(ScenarioLoader.parse("bad.yaml", c.yaml()), OptionalInt.empty()))
        .isInstanceOf(ScenarioException.class)
        .hasMessage(c.expected());
  }
}
