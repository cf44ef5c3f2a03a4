package io.gantry.scheduler.sim.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.kubemodel.config.ConfigSpec;
import io.gantry.kubemodel.config.PluginSpec;
import io.gantry.kubemodel.config.UsageSpec;
import io.gantry.kubemodel.kai.Preemptibility;
import io.gantry.kubemodel.read.ScenarioException;
import io.gantry.kubemodel.selector.AffinitySpec;
import io.gantry.kubemodel.selector.LabelSelectorRequirementSpec;
import io.gantry.kubemodel.selector.LabelSelectorSpec;
import io.gantry.kubemodel.selector.NodeAffinitySpec;
import io.gantry.kubemodel.selector.NodeSelectorRequirementSpec;
import io.gantry.kubemodel.selector.NodeSelectorTermSpec;
import io.gantry.kubemodel.selector.PodAffinitySpec;
import io.gantry.kubemodel.selector.PodAffinityTermSpec;
import io.gantry.kubemodel.selector.PreferredSchedulingTermSpec;
import io.gantry.kubemodel.selector.TaintSpec;
import io.gantry.kubemodel.selector.TolerationSpec;
import io.gantry.kubemodel.selector.WeightedPodAffinityTermSpec;
import io.gantry.scheduler.api.config.SearchBudgets;
import io.gantry.scheduler.model.placement.SelectorOperator;
import io.gantry.scheduler.sim.expect.Expectations;
import io.gantry.scheduler.sim.expect.JobExpectation;
import io.gantry.scheduler.sim.expect.NodeExpectation;
import io.gantry.scheduler.sim.expect.QueueExpectation;
import io.gantry.scheduler.sim.expect.TaskExpectation;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** Every documented field loads, with its defaults and the lines it came from. */
class ScenarioLoaderTest {
  /** The example of scenario-format.md, with every field set and every optional part present. */
  private static final String FULL =
      """
      apiVersion: gantry.io/v1alpha1
      kind: Scenario
      metadata:
        name: two-teams
        description: Team B reclaims its quota from team A.
      config:
        actions: [allocate, consolidation, reclaim, preempt, stalegangeviction]
        cycles: 3
        cyclePeriod: 1s
        placement: {gpu: binpack, cpu: spread}
        plugins:
          predicates: {enabled: false}
          proportion: {arguments: {kValue: 1.0}}
          minruntime: {arguments: {defaultReclaimMinRuntime: 0s, reclaimResolveMethod: lca, n: 3, on: true}}
        staleGangGracePeriod: 60s
        maxConsolidationPreemptees: -1
        allowConsolidatingReclaim: true
      topologies:
        - name: cluster
          levels: [{nodeLabel: zone}, {nodeLabel: rack, alias: rack}, {nodeLabel: kubernetes.io/hostname}]
      nodes:
        - name: dgx
          count: 2
          gpus: 8
          gpuMemory: 81920
          gpuMemorySynced: false
          gpuProduct: NVIDIA-H100-80GB-HBM3
          cpu: "128"
          memory: 1Ti
          maxPods: 64
          extended: {nvidia.com/mig-1g.10gb: 7}
          migStrategy: mixed
          labels: {zone: z1, rack: r1}
          taints: [{key: dedicated, value: ml, effect: NoSchedule}, {key: gpu, effect: NoExecute}]
          unschedulable: true
          ready: false
      queues:
        - name: research
          priority: 90
          resources:
            gpu:    {quota: 8,  overQuotaWeight: 1, limit: -1}
            cpu:    {quota: -1, overQuotaWeight: 1, limit: 500.5}
            memory: {quota: -1}
          preemptMinRuntime: 0s
          reclaimMinRuntime: 5m
          createdAt: -1h
        - name: team-a
          parent: research
          resources: {gpu: {quota: 4, overQuotaWeight: 1, limit: -1}}
      jobs:
        - name: train-a
          count: 1
          namespace: ml
          queue: team-a
          priority: 42
          preemptibility: non-preemptible
          minSubGroup: 2
          subGroups:
            - {name: workers, minMember: 4}
            - {name: ps, minMember: 1, parent: null}
            - {name: stage, minSubGroup: 1}
            - {name: stage-a, parent: stage, minMember: 2,
               topologyConstraint: {topology: cluster, requiredTopologyLevel: rack}}
          topologyConstraint: {topology: cluster, requiredTopologyLevel: rack, preferredTopologyLevel: kubernetes.io/hostname}
          createdAt: -10m
          lastStartedAt: -5m
          preemptionDelay: 0s
          stalenessGracePeriod: 60s
          staleSince: -2m
          replace: false
          terminationGracePeriod: 30s
          arrival: 0s
          duration: 2h
          tasks:
            - name: worker
              replicas: 4
              subGroup: workers
              resources: {cpu: 500m, memory: 64Gi, example.com/foo: 2}
              gpuFraction: 0.5
              gpuFractionNumDevices: 2
              status: Running
              node: dgx-0
              gpuGroups: [g0, g1]
              startedAt: -5m
              taskPriority: 3
              labels: {app: trainer}
              annotations: {note: "x"}
              nodeSelector: {zone: z1}
              tolerations: [{key: dedicated, operator: Equal, value: ml, effect: NoSchedule}, {operator: Exists}]
              affinity:
                nodeAffinity:
                  requiredDuringSchedulingIgnoredDuringExecution:
                    nodeSelectorTerms:
                      - matchExpressions: [{key: zone, operator: In, values: [z1, z2]}, {key: gen, operator: Gt, values: ["3"]}]
                        matchFields: [{key: metadata.name, operator: NotIn, values: [dgx-1]}]
                  preferredDuringSchedulingIgnoredDuringExecution:
                    - weight: 10
                      preference: {matchExpressions: [{key: rack, operator: Exists}]}
                podAntiAffinity:
                  requiredDuringSchedulingIgnoredDuringExecution:
                    - labelSelector:
                        matchLabels: {app: trainer}
                        matchExpressions: [{key: tier, operator: NotIn, values: [web]}]
                      namespaces: [ml]
                      topologyKey: kubernetes.io/hostname
                  preferredDuringSchedulingIgnoredDuringExecution:
                    - weight: 100
                      podAffinityTerm: {topologyKey: zone}
            - name: ps
              subGroup: ps
              gpuMemory: 20000
            - {name: a, subGroup: stage-a, replicas: 0}
      expect:
        jobs:
          train-a: {status: Mixed, nodes: [dgx-0], taskStatuses: {Running: 4, Pending: 1}, messageContains: quota}
        tasks:
          train-a/worker-0: {status: Binding, node: dgx-0, gpuPortion: 0.5, sharesGpuWith: train-a/worker-1}
          train-a/ps: {status: Pending, messageContains: "quota has reached the allowable limit"}
        queues:
          team-a: {fairShare: {gpu: 4}, allocated: {gpu: 4, cpu: 32000, memory: 274877906944}}
        nodes:
          dgx-0: {idleGpus: 4, releasingGpus: 0}
      """;

  private static final String MINIMAL =
      """
      apiVersion: gantry.io/v1alpha1
      kind: Scenario
      metadata: {name: minimal}
      nodes: [{name: n}]
      queues: [{name: q}]
      jobs: [{name: j, queue: q, tasks: [{name: t}]}]
      """;

  @Test
  void config() throws ScenarioException {
    ConfigSpec config = ScenarioLoader.parse("full.yaml", FULL).config();

    assertThat(config)
        .isEqualTo(
            new ConfigSpec(
                Optional.of(
                    List.of(
                        "allocate", "consolidation", "reclaim", "preempt", "stalegangeviction")),
                OptionalInt.of(3),
                Optional.of(Duration.ofSeconds(1)),
                Optional.of("binpack"),
                Optional.of("spread"),
                ImmutableSortedMap.of(
                    "minruntime",
                    new PluginSpec(
                        Optional.empty(),
                        ImmutableSortedMap.of(
                            "defaultReclaimMinRuntime",
                            "0s",
                            "n",
                            3L,
                            "on",
                            true,
                            "reclaimResolveMethod",
                            "lca"),
                        14),
                    "predicates",
                    new PluginSpec(Optional.of(false), ImmutableSortedMap.of(), 12),
                    "proportion",
                    new PluginSpec(Optional.empty(), ImmutableSortedMap.of("kValue", 1.0), 13)),
                Optional.of(Duration.ofSeconds(60)),
                OptionalInt.of(-1),
                Optional.of(true),
                Optional.empty(),
                Optional.empty(),
                ImmutableSortedMap.of(),
                lines(
                    "actions",
                    7,
                    "cycles",
                    8,
                    "cyclePeriod",
                    9,
                    "placement",
                    10,
                    "placement.gpu",
                    10,
                    "placement.cpu",
                    10,
                    "plugins",
                    11,
                    "staleGangGracePeriod",
                    15,
                    "maxConsolidationPreemptees",
                    16,
                    "allowConsolidatingReclaim",
                    17)));
  }

  @Test
  void topologiesNodesAndQueues() throws ScenarioException {
    ScenarioSpec scenario = ScenarioLoader.parse("full.yaml", FULL);

    assertThat(scenario.name()).isEqualTo("two-teams");
    assertThat(scenario.description()).isEqualTo("Team B reclaims its quota from team A.");
    assertThat(scenario.topologies())
        .containsExactly(
            new TopologySpec(
                "cluster",
                List.of(
                    new TopologyLevelSpec("zone", Optional.empty()),
                    new TopologyLevelSpec("rack", Optional.of("rack")),
                    new TopologyLevelSpec("kubernetes.io/hostname", Optional.empty())),
                19));
    assertThat(scenario.nodes())
        .containsExactly(
            new NodeSpec(
                "dgx",
                2,
                8,
                OptionalLong.of(81920),
                false,
                Optional.of("NVIDIA-H100-80GB-HBM3"),
                128_000,
                1L << 40,
                64,
                ImmutableSortedMap.of("nvidia.com/mig-1g.10gb", 7L),
                MigStrategy.MIXED,
                ImmutableSortedMap.of("rack", "r1", "zone", "z1"),
                List.of(
                    new TaintSpec("dedicated", "ml", "NoSchedule"),
                    new TaintSpec("gpu", "", "NoExecute")),
                true,
                false,
                22,
                lines(
                    "name",
                    22,
                    "count",
                    23,
                    "gpus",
                    24,
                    "gpuMemory",
                    25,
                    "gpuMemorySynced",
                    26,
                    "gpuProduct",
                    27,
                    "cpu",
                    28,
                    "memory",
                    29,
                    "maxPods",
                    30,
                    "extended",
                    31,
                    "migStrategy",
                    32,
                    "labels",
                    33,
                    "taints",
                    34,
                    "unschedulable",
                    35,
                    "ready",
                    36),
                ImmutableList.of()));
    assertThat(scenario.queues())
        .containsExactly(
            new QueueSpec(
                "research",
                Optional.empty(),
                90,
                ImmutableSortedMap.of(
                    "cpu", resource(-1, 1, 500.5),
                    "gpu", resource(8, 1, -1),
                    "memory",
                        new QueueResourceSpec(
                            OptionalDouble.of(-1), OptionalDouble.empty(), OptionalDouble.empty())),
                Optional.of(Duration.ZERO),
                Optional.of(Duration.ofMinutes(5)),
                Optional.of(Duration.ofHours(-1)),
                38,
                lines(
                    "name",
                    38,
                    "priority",
                    39,
                    "resources",
                    40,
                    "preemptMinRuntime",
                    44,
                    "reclaimMinRuntime",
                    45,
                    "createdAt",
                    46)),
            new QueueSpec(
                "team-a",
                Optional.of("research"),
                100,
                ImmutableSortedMap.of("gpu", resource(4, 1, -1)),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                47,
                lines("name", 47, "parent", 48, "resources", 49)));
  }

  @Test
  void job() throws ScenarioException {
    JobSpec job = ScenarioLoader.parse("full.yaml", FULL).jobs().get(0);

    TopologyConstraintSpec rack =
        new TopologyConstraintSpec("cluster", Optional.of("rack"), Optional.empty());
    assertThat(job)
        .usingRecursiveComparison()
        .ignoringFields("tasks")
        .isEqualTo(
            new JobSpec(
                "train-a",
                1,
                "ml",
                "team-a",
                Optional.empty(),
                OptionalInt.of(42),
                Optional.of(Preemptibility.NON_PREEMPTIBLE),
                OptionalInt.empty(),
                OptionalInt.of(2),
                List.of(
                    new SubGroupSpec(
                        "workers",
                        Optional.empty(),
                        OptionalInt.of(4),
                        OptionalInt.empty(),
                        Optional.empty(),
                        59),
                    new SubGroupSpec(
                        "ps",
                        Optional.empty(),
                        OptionalInt.of(1),
                        OptionalInt.empty(),
                        Optional.empty(),
                        60),
                    new SubGroupSpec(
                        "stage",
                        Optional.empty(),
                        OptionalInt.empty(),
                        OptionalInt.of(1),
                        Optional.empty(),
                        61),
                    new SubGroupSpec(
                        "stage-a",
                        Optional.of("stage"),
                        OptionalInt.of(2),
                        OptionalInt.empty(),
                        Optional.of(rack),
                        62)),
                Optional.of(
                    new TopologyConstraintSpec(
                        "cluster", Optional.of("rack"), Optional.of("kubernetes.io/hostname"))),
                Optional.of(Duration.ofMinutes(-10)),
                Optional.of(Duration.ofMinutes(-5)),
                Optional.of(Duration.ZERO),
                Optional.of(Duration.ofSeconds(60)),
                Optional.of(Duration.ofMinutes(-2)),
                false,
                Optional.of(Duration.ofSeconds(30)),
                Optional.of(Duration.ZERO),
                Optional.of(Duration.ofHours(2)),
                List.of(),
                "jobs[0]",
                51,
                lines(
                    "name",
                    51,
                    "count",
                    52,
                    "namespace",
                    53,
                    "queue",
                    54,
                    "priority",
                    55,
                    "preemptibility",
                    56,
                    "minSubGroup",
                    57,
                    "subGroups",
                    58,
                    "topologyConstraint",
                    64,
                    "createdAt",
                    65,
                    "lastStartedAt",
                    66,
                    "preemptionDelay",
                    67,
                    "stalenessGracePeriod",
                    68,
                    "staleSince",
                    69,
                    "replace",
                    70,
                    "terminationGracePeriod",
                    71,
                    "arrival",
                    72,
                    "duration",
                    73,
                    "tasks",
                    74)));
    assertThat(job.tasks()).extracting(TaskSpec::name).containsExactly("worker", "ps", "a");
  }

  @Test
  void tasks() throws ScenarioException {
    List<TaskSpec> tasks = ScenarioLoader.parse("full.yaml", FULL).jobs().get(0).tasks();

    assertThat(tasks.get(0))
        .isEqualTo(
            new TaskSpec(
                "worker",
                4,
                Optional.of("workers"),
                ImmutableSortedMap.of("cpu", 500L, "example.com/foo", 2L, "memory", 64L << 30),
                OptionalDouble.of(0.5),
                OptionalLong.empty(),
                OptionalInt.of(2),
                InitialTaskStatus.RUNNING,
                Optional.of("dgx-0"),
                List.of("g0", "g1"),
                Optional.of(Duration.ofMinutes(-5)),
                OptionalInt.of(3),
                ImmutableSortedMap.of("app", "trainer"),
                ImmutableSortedMap.of("note", "x"),
                ImmutableSortedMap.of("zone", "z1"),
                List.of(
                    new TolerationSpec(
                        Optional.of("dedicated"),
                        "Equal",
                        Optional.of("ml"),
                        Optional.of("NoSchedule")),
                    new TolerationSpec(
                        Optional.empty(), "Exists", Optional.empty(), Optional.empty())),
                tasks.get(0).affinity(),
                Optional.empty(),
                "jobs[0].tasks[0]",
                75,
                lines(
                    "name",
                    75,
                    "replicas",
                    76,
                    "subGroup",
                    77,
                    "resources",
                    78,
                    "gpuFraction",
                    79,
                    "gpuFractionNumDevices",
                    80,
                    "status",
                    81,
                    "node",
                    82,
                    "gpuGroups",
                    83,
                    "startedAt",
                    84,
                    "taskPriority",
                    85,
                    "labels",
                    86,
                    "annotations",
                    87,
                    "nodeSelector",
                    88,
                    "tolerations",
                    89,
                    "affinity",
                    90),
                List.of(),
                List.of()));
    assertThat(tasks.get(1))
        .isEqualTo(
            new TaskSpec(
                "ps",
                1,
                Optional.of("ps"),
                ImmutableSortedMap.of(),
                OptionalDouble.empty(),
                OptionalLong.of(20000),
                OptionalInt.empty(),
                InitialTaskStatus.PENDING,
                Optional.empty(),
                List.of(),
                Optional.empty(),
                OptionalInt.empty(),
                ImmutableSortedMap.of(),
                ImmutableSortedMap.of(),
                ImmutableSortedMap.of(),
                List.of(),
                Optional.empty(),
                Optional.empty(),
                "jobs[0].tasks[1]",
                109,
                lines("name", 109, "subGroup", 110, "gpuMemory", 111),
                List.of(),
                List.of()));
    assertThat(tasks.get(2).replicas()).isZero();
    assertThat(tasks.get(2).expandedNames()).isEmpty();
  }

  @Test
  void affinity() throws ScenarioException {
    TaskSpec worker = ScenarioLoader.parse("full.yaml", FULL).jobs().get(0).tasks().get(0);

    assertThat(worker.affinity())
        .contains(
            new AffinitySpec(
                Optional.of(
                    new NodeAffinitySpec(
                        List.of(
                            new NodeSelectorTermSpec(
                                List.of(
                                    new NodeSelectorRequirementSpec(
                                        "zone", SelectorOperator.IN, List.of("z1", "z2")),
                                    new NodeSelectorRequirementSpec(
                                        "gen", SelectorOperator.GT, List.of("3"))),
                                List.of(
                                    new NodeSelectorRequirementSpec(
                                        "metadata.name",
                                        SelectorOperator.NOT_IN,
                                        List.of("dgx-1"))),
                                94)),
                        List.of(
                            new PreferredSchedulingTermSpec(
                                10,
                                new NodeSelectorTermSpec(
                                    List.of(
                                        new NodeSelectorRequirementSpec(
                                            "rack", SelectorOperator.EXISTS, List.of())),
                                    List.of(),
                                    98),
                                97)),
                        92)),
                Optional.empty(),
                Optional.of(
                    new PodAffinitySpec(
                        List.of(
                            new PodAffinityTermSpec(
                                Optional.of(
                                    new LabelSelectorSpec(
                                        ImmutableSortedMap.of("app", "trainer"),
                                        List.of(
                                            new LabelSelectorRequirementSpec(
                                                "tier", SelectorOperator.NOT_IN, List.of("web"))))),
                                List.of("ml"),
                                "kubernetes.io/hostname",
                                101)),
                        List.of(
                            new WeightedPodAffinityTermSpec(
                                100,
                                new PodAffinityTermSpec(Optional.empty(), List.of(), "zone", 108),
                                107)),
                        100)),
                91,
                lines("nodeAffinity", 91, "podAntiAffinity", 99)));
  }

  @Test
  void expectations() throws ScenarioException {
    Expectations expect = ScenarioLoader.parse("full.yaml", FULL).expect();

    assertThat(expect)
        .isEqualTo(
            new Expectations(
                ImmutableSortedMap.of(
                    "train-a",
                    new JobExpectation(
                        Optional.of("Mixed"),
                        Optional.of(List.of("dgx-0")),
                        Optional.of(ImmutableSortedMap.of("Pending", 1, "Running", 4)),
                        Optional.of("quota"))),
                ImmutableSortedMap.of(
                    "train-a/ps",
                    new TaskExpectation(
                        Optional.of("Pending"),
                        Optional.empty(),
                        OptionalDouble.empty(),
                        Optional.empty(),
                        Optional.of("quota has reached the allowable limit")),
                    "train-a/worker-0",
                    new TaskExpectation(
                        Optional.of("Binding"),
                        Optional.of("dgx-0"),
                        OptionalDouble.of(0.5),
                        Optional.of("train-a/worker-1"),
                        Optional.empty())),
                ImmutableSortedMap.of(
                    "team-a",
                    new QueueExpectation(
                        Optional.of(ImmutableSortedMap.of("gpu", 4.0)),
                        Optional.of(
                            ImmutableSortedMap.of(
                                "cpu", 32000.0, "gpu", 4.0, "memory", 274877906944.0)))),
                ImmutableSortedMap.of(
                    "dgx-0", new NodeExpectation(OptionalInt.of(4), OptionalInt.of(0)))));
  }

  @Test
  void usage() throws ScenarioException {
    String yaml =
        MINIMAL.replace(
            "nodes:",
            "config: {usage: {windowSize: 10m, halfLifePeriod: 5m, windowType: tumbling,"
                + " tumblingWindowStartTime: 1m}}\nnodes:");

    assertThat(ScenarioLoader.parse("usage.yaml", yaml).config().usage())
        .contains(
            new UsageSpec(
                Duration.ofMinutes(10),
                Duration.ofMinutes(5),
                UsageSpec.WindowType.TUMBLING,
                Duration.ofMinutes(1)));
    assertThat(
            ScenarioLoader.parse(
                    "usage.yaml", MINIMAL.replace("nodes:", "config: {usage: {}}\nnodes:"))
                .config()
                .usage())
        .contains(
            new UsageSpec(
                UsageSpec.DEFAULT_WINDOW,
                Duration.ZERO,
                UsageSpec.WindowType.SLIDING,
                Duration.ZERO));
    assertThatThrownBy(
            () ->
                ScenarioLoader.parse(
                    "usage.yaml",
                    MINIMAL.replace("nodes:", "config: {usage: {windowSize: 0s}}\nnodes:")))
        .isInstanceOf(ScenarioException.class)
        .hasMessageContaining("config.usage.windowSize");
  }

  @Test
  void scenarioSearchBudgets() throws ScenarioException {
    String yaml =
        MINIMAL.replace(
            "nodes:",
            """
            config:
              scenarioSearchBudgets:
                maxActionSearchDuration: {default: 1m, preempt: 0s}
                maxJobSearchDuration: 30s
                minJobSearchDuration: 1s
                maxGeneratorSearchDuration: {MultiNodeGang: 20s}
            nodes:""");

    SearchBudgets budgets =
        ScenarioLoader.parse("b.yaml", yaml).config().evictionSettings().budgets();

    assertThat(budgets)
        .isEqualTo(
            new SearchBudgets(
                ImmutableSortedMap.of("default", Duration.ofMinutes(1), "preempt", Duration.ZERO),
                Duration.ofSeconds(30),
                Duration.ofSeconds(1),
                ImmutableSortedMap.of("MultiNodeGang", Duration.ofSeconds(20))));
    assertThat(budgets.action("reclaim")).isEqualTo(Duration.ofMinutes(1));
    assertThat(budgets.generator("NodeLocalGreedy")).isEqualTo(Duration.ofSeconds(30));
    assertThat(ScenarioLoader.parse("m.yaml", MINIMAL).config().evictionSettings().budgets())
        .isEqualTo(SearchBudgets.DEFAULTS);
    assertThatThrownBy(
            () ->
                ScenarioLoader.parse(
                    "b.yaml",
                    MINIMAL.replace(
                        "nodes:",
                        "config: {scenarioSearchBudgets: {maxJobSearchDuration: 1s,"
                            + " minJobSearchDuration: 1s}}\nnodes:")))
        .hasMessage(
            "b.yaml:4: config.scenarioSearchBudgets.minJobSearchDuration:"
                + " minJobSearchDuration must be less than maxJobSearchDuration");
    assertThatThrownBy(
            () ->
                ScenarioLoader.parse(
                    "b.yaml",
                    MINIMAL.replace(
                        "nodes:",
                        "config: {scenarioSearchBudgets: {maxJobSearchDuration: -1s}}\nnodes:")))
        .hasMessageContaining("config.scenarioSearchBudgets.maxJobSearchDuration");
  }

  @Test
  void defaults() throws ScenarioException {
    ScenarioSpec scenario = ScenarioLoader.parse("minimal.yaml", MINIMAL);

    assertThat(scenario.description()).isEmpty();
    assertThat(scenario.config()).isEqualTo(ConfigSpec.EMPTY);
    assertThat(scenario.topologies()).isEmpty();
    assertThat(scenario.expect()).isEqualTo(Expectations.NONE);
    assertThat(scenario.nodes())
        .containsExactly(
            new NodeSpec(
                "n",
                1,
                0,
                OptionalLong.empty(),
                true,
                Optional.empty(),
                0,
                0,
                110,
                ImmutableSortedMap.of(),
                MigStrategy.NONE,
                ImmutableSortedMap.of(),
                List.of(),
                false,
                true,
                4,
                lines("name", 4),
                ImmutableList.of()));
    assertThat(scenario.nodes().get(0).expandedNames()).containsExactly("n");
    QueueSpec queue = scenario.queues().get(0);
    assertThat(queue.priority()).isEqualTo(100);
    assertThat(queue.resources()).isEmpty();
    JobSpec job = scenario.jobs().get(0);
    assertThat(job.count()).isEqualTo(1);
    assertThat(job.namespace()).isEqualTo("default");
    assertThat(job.replace()).isTrue();
    assertThat(job.priorityClass()).isEmpty();
    assertThat(job.priority()).isEmpty();
    assertThat(job.subGroups()).isEmpty();
    TaskSpec task = job.tasks().get(0);
    assertThat(task.replicas()).isEqualTo(1);
    assertThat(task.status()).isEqualTo(InitialTaskStatus.PENDING);
    assertThat(task.resources()).isEmpty();
    assertThat(task.expandedNames()).containsExactly("t");
  }

  @Test
  void json() throws ScenarioException {
    String json =
        """
        {"apiVersion": "gantry.io/v1alpha1", "kind": "Scenario", "metadata": {"name": "j"},
         "nodes": [{"name": "n", "gpus": 2, "cpu": "500m", "memory": 1024}],
         "queues": [{"name": "q"}],
         "jobs": [{"name": "j", "queue": "q",
                   "tasks": [{"name": "t", "gpuFraction": 0.25, "resources": {"cpu": 1.5}}]}]}
        """;

    ScenarioSpec scenario = ScenarioLoader.parse("s.json", json);

    assertThat(scenario.nodes().get(0).cpuMillis()).isEqualTo(500);
    assertThat(scenario.nodes().get(0).memoryBytes()).isEqualTo(1024);
    assertThat(scenario.nodes().get(0).line()).isEqualTo(2);
    TaskSpec task = scenario.jobs().get(0).tasks().get(0);
    assertThat(task.gpuFraction()).isEqualTo(OptionalDouble.of(0.25));
    assertThat(task.resources()).isEqualTo(ImmutableSortedMap.of("cpu", 1500L));
    assertThat(task.line()).isEqualTo(5);
  }

  @Test
  void exceptionParts() {
    assertThatThrownBy(
            () ->
                ScenarioLoader.parse(
                    "bad.yaml", MINIMAL.replace("{name: n}", "{name: n, gpuz: 1}")))
        .isInstanceOfSatisfying(
            ScenarioException.class,
            e -> {
              assertThat(e.sourceName()).isEqualTo("bad.yaml");
              assertThat(e.line()).isEqualTo(4);
              assertThat(e.field()).isEqualTo("nodes[0].gpuz");
              assertThat(e.problem()).isEqualTo("unknown field");
              assertThat(e).hasMessage("bad.yaml:4: nodes[0].gpuz: unknown field");
            });
  }

  @Test
  void missingFile() {
    Path missing = Path.of("no-such-dir", "missing.yaml");

    assertThatThrownBy(() -> ScenarioLoader.load(missing))
        .isInstanceOfSatisfying(
            ScenarioException.class,
            e -> {
              assertThat(e.line()).isZero();
              assertThat(e.field()).isEmpty();
              assertThat(e).hasMessage(missing + ": no such file or directory");
            });
  }

  @Test
  void hostnameLabelWithTheNodesOwnNameIsAccepted() throws ScenarioException {
    ScenarioSpec scenario =
        ScenarioLoader.parse(
            "snapshot.yaml",
            MINIMAL.replace(
                "{name: n}", "{name: n, labels: {kubernetes.io/hostname: n, zone: z1}}"));

    assertThat(scenario.nodes().get(0).labels())
        .isEqualTo(ImmutableSortedMap.of("kubernetes.io/hostname", "n", "zone", "z1"));
  }

  @Test
  void aJsonFileSyntaxErrorSaysInvalidJsonInTheJsonParsersWords() {
    String json =
        """
        {"apiVersion": "gantry.io/v1alpha1", "kind": "Scenario",
         "metadata": {"name": "x"},,
        }
        """;

    assertThatThrownBy(() -> ScenarioLoader.parse("bad.json", json))
        .isInstanceOf(ScenarioException.class)
        .hasMessage(
            "bad.json:2: invalid JSON: Unexpected character (',' (code 44)): was expecting"
                + " double-quote to start field name");
    assertThatThrownBy(() -> ScenarioLoader.parse("bad.yaml", json))
        .isInstanceOf(ScenarioException.class)
        .hasMessage("bad.yaml:2: invalid YAML: expected the node content, but found ','");
  }

  @Test
  void limitsApplyToTheExpandedScenario() throws ScenarioException {
    String twoNodesTwoPods = MINIMAL.replace("{name: n}", "{name: n, count: 2}");
    String threePods = twoNodesTwoPods.replace("{name: t}", "{name: t, replicas: 3}");

    assertThat(ScenarioLoader.parse("s.yaml", twoNodesTwoPods, new ScenarioLimits(2, 1)).nodes())
        .hasSize(1);
    assertThatThrownBy(
            () -> ScenarioLoader.parse("s.yaml", twoNodesTwoPods, new ScenarioLimits(1, 1)))
        .hasMessage(
            "s.yaml:4: nodes[0].count: the scenario would have 2 nodes, more than the limit of 1"
                + " (raise it with --max-nodes)");
    assertThatThrownBy(() -> ScenarioLoader.parse("s.yaml", threePods, new ScenarioLimits(2, 2)))
        .hasMessage(
            "s.yaml:6: jobs[0].tasks[0].replicas: the scenario would have 3 pods, more than the"
                + " limit of 2 (raise it with --max-pods)");
  }

  @Test
  void hasExpectationsOnlyWithAnExpectBlock() throws ScenarioException {
    assertThat(ScenarioLoader.parse("minimal.yaml", MINIMAL).hasExpectations()).isFalse();
    assertThat(
            ScenarioLoader.parse(
                    "expect.yaml", MINIMAL + "expect:\n  jobs:\n    j: {status: Binding}\n")
                .hasExpectations())
        .isTrue();
  }

  @Test
  void specsAreImmutable() throws ScenarioException {
    ScenarioSpec scenario = ScenarioLoader.parse("full.yaml", FULL);

    assertThatThrownBy(() -> scenario.jobs().clear())
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> scenario.jobs().get(0).tasks().get(0).gpuGroups().add("g2"))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> scenario.config().actions().orElseThrow().clear())
        .isInstanceOf(UnsupportedOperationException.class);
  }

  private static QueueResourceSpec resource(double quota, double overQuotaWeight, double limit) {
    return new QueueResourceSpec(
        OptionalDouble.of(quota), OptionalDouble.of(overQuotaWeight), OptionalDouble.of(limit));
  }

  /** Key/line pairs. */
  private static ImmutableSortedMap<String, Integer> lines(Object... keysAndLines) {
    ImmutableSortedMap.Builder<String, Integer> lines = ImmutableSortedMap.naturalOrder();
    for (int i = 0; i < keysAndLines.length; i += 2) {
      lines.put((String) keysAndLines[i], (Integer) keysAndLines[i + 1]);
    }
    return lines.build();
  }
}
