package io.gantry.scheduler.sim.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.kubemodel.read.ScenarioException;
import io.gantry.scheduler.sim.expect.JobExpectation;
import io.gantry.scheduler.sim.expect.NodeExpectation;
import io.gantry.scheduler.sim.expect.TaskExpectation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The example scenarios in the repository's examples/ all load, with the values they spell out. */
class ScenarioFilesTest {
  /** examples/ at the repository root; tests run in this module's directory. */
  private static final Path EXAMPLES = Path.of("..", "..", "examples");

  static Stream<Path> scenarioFiles() throws IOException {
    try (Stream<Path> files = Files.list(EXAMPLES)) {
      return files
          .filter(file -> file.toString().endsWith(".yaml") || file.toString().endsWith(".json"))
          .sorted()
          .collect(ImmutableList.toImmutableList())
          .stream();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("scenarioFiles")
  void loads(Path file) throws ScenarioException {
    ScenarioSpec scenario = ScenarioLoader.load(file);

    assertThat(scenario.sourceName()).isEqualTo(file.toString());
    assertThat(scenario.name()).isNotEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("scenarioFiles")
  void loadsTheSameTwice(Path file) throws ScenarioException {
    assertThat(ScenarioLoader.load(file)).isEqualTo(ScenarioLoader.load(file));
  }

  @Test
  void quickstart() throws ScenarioException {
    ScenarioSpec scenario = load("quickstart.yaml");

    NodeSpec dgx = scenario.nodes().get(0);
    assertThat(scenario.nodes()).hasSize(1);
    assertThat(dgx.name()).isEqualTo("dgx");
    assertThat(dgx.count()).isEqualTo(2);
    assertThat(dgx.expandedNames()).containsExactly("dgx-0", "dgx-1");
    assertThat(dgx.gpus()).isEqualTo(8);
    assertThat(dgx.gpuMemoryMib()).hasValue(81920);
    assertThat(dgx.gpuProduct()).contains("NVIDIA-H100-80GB-HBM3");
    assertThat(dgx.cpuMillis()).isEqualTo(128_000);
    assertThat(dgx.memoryBytes()).isEqualTo(1L << 40);
    assertThat(dgx.maxPods()).isEqualTo(110);
    assertThat(dgx.migStrategy()).isEqualTo(MigStrategy.NONE);
    assertThat(dgx.gpuMemorySynced()).isTrue();
    assertThat(dgx.ready()).isTrue();
    assertThat(dgx.unschedulable()).isFalse();
    assertThat(dgx.line()).isEqualTo(11);
    assertThat(dgx.fieldLines())
        .isEqualTo(
            ImmutableSortedMap.of(
                "name",
                11,
                "count",
                12,
                "gpus",
                13,
                "gpuMemory",
                14,
                "gpuProduct",
                15,
                "cpu",
                16,
                "memory",
                17));

    assertThat(scenario.queues())
        .extracting(QueueSpec::name, QueueSpec::parent)
        .containsExactly(
            tuple("ai", Optional.empty()),
            tuple("research", Optional.of("ai")),
            tuple("product", Optional.of("ai")));
    assertThat(scenario.queues().get(0).resources().get("gpu"))
        .isEqualTo(
            new QueueResourceSpec(
                OptionalDouble.of(16), OptionalDouble.of(1), OptionalDouble.of(-1)));

    JobSpec pretrain = scenario.jobs().get(0);
    assertThat(pretrain.name()).isEqualTo("llm-pretrain");
    assertThat(pretrain.namespace()).isEqualTo("default");
    assertThat(pretrain.priorityClass()).contains("train");
    assertThat(pretrain.minMember()).isEqualTo(OptionalInt.of(4));
    assertThat(pretrain.createdAt()).contains(Duration.ofMinutes(-30));
    assertThat(pretrain.replace()).isTrue();
    TaskSpec worker = pretrain.tasks().get(0);
    assertThat(worker.expandedNames())
        .containsExactly("worker-0", "worker-1", "worker-2", "worker-3");
    assertThat(worker.resources())
        .isEqualTo(
            ImmutableSortedMap.of("cpu", 16_000L, "memory", 128L << 30, "nvidia.com/gpu", 2L));
    assertThat(worker.status()).isEqualTo(InitialTaskStatus.PENDING);

    JobSpec sweep = scenario.jobs().get(3);
    assertThat(sweep.name()).isEqualTo("sweep");
    assertThat(sweep.count()).isEqualTo(4);
    assertThat(sweep.expandedNames()).containsExactly("sweep-0", "sweep-1", "sweep-2", "sweep-3");

    TaskSpec lab = scenario.jobs().get(2).tasks().get(0);
    assertThat(lab.gpuFraction()).isEqualTo(OptionalDouble.of(0.5));
    assertThat(lab.resources())
        .isEqualTo(ImmutableSortedMap.of("cpu", 2_000L, "memory", 16L << 30));

    assertThat(scenario.expect().jobs()).hasSize(7);
    assertThat(scenario.expect().jobs().get("llm-pretrain"))
        .isEqualTo(
            new JobExpectation(
                Optional.of("Binding"),
                Optional.of(List.of("dgx-1")),
                Optional.empty(),
                Optional.empty()));
    assertThat(scenario.expect().queues().get("research").fairShare())
        .contains(ImmutableSortedMap.of("gpu", 8.5));
    assertThat(scenario.expect().nodes().get("dgx-0"))
        .isEqualTo(new NodeExpectation(OptionalInt.of(1), OptionalInt.empty()));
  }

  @Test
  void fractionalGpus() throws ScenarioException {
    ScenarioSpec scenario = load("fractional-gpus.yaml");

    assertThat(scenario.jobs().get(3).tasks().get(0).gpuMemoryMib()).hasValue(40960);
    assertThat(scenario.expect().tasks().get("by-memory/run"))
        .isEqualTo(
            new TaskExpectation(
                Optional.of("Binding"),
                Optional.of("node-0"),
                OptionalDouble.of(0.51),
                Optional.of("third/run"),
                Optional.empty()));
  }

  @Test
  void elastic() throws ScenarioException {
    ScenarioSpec scenario = load("elastic.yaml");

    assertThat(scenario.expect().jobs().get("elastic-train").taskStatuses())
        .contains(ImmutableSortedMap.of("Binding", 4, "Pending", 2));
  }

  @Test
  void topologyRack() throws ScenarioException {
    ScenarioSpec scenario = load("topology-rack.yaml");

    assertThat(scenario.topologies())
        .containsExactly(
            new TopologySpec(
                "cluster",
                List.of(
                    new TopologyLevelSpec("example.com/rack", Optional.empty()),
                    new TopologyLevelSpec("kubernetes.io/hostname", Optional.empty())),
                11));
    assertThat(scenario.nodes().get(2).labels())
        .isEqualTo(ImmutableSortedMap.of("example.com/rack", "r2"));
    assertThat(scenario.jobs().get(1).topologyConstraint())
        .contains(
            new TopologyConstraintSpec(
                "cluster", Optional.of("example.com/rack"), Optional.empty()));
  }

  @Test
  void runningTasksNameTheirNode() throws ScenarioException {
    ScenarioSpec scenario = load("reclaim-min-runtime.yaml");

    TaskSpec run = scenario.jobs().get(0).tasks().get(0);
    assertThat(run.status()).isEqualTo(InitialTaskStatus.RUNNING);
    assertThat(run.node()).contains("node-0");
    assertThat(scenario.jobs().get(0).lastStartedAt()).contains(Duration.ofMinutes(-5));
    assertThat(scenario.queues().get(0).reclaimMinRuntime()).contains(Duration.ofMinutes(10));
  }

  private static ScenarioSpec load(String name) throws ScenarioException {
    return ScenarioLoader.load(EXAMPLES.resolve(name));
  }
}
