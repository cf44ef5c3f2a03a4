package io.gantry.scheduler.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.collect.ImmutableSortedMap;
import io.gantry.kubemodel.read.ScenarioException;
import io.gantry.kubemodel.scenario.ScenarioWriter;
import io.gantry.scheduler.api.result.BindDecision;
import io.gantry.scheduler.api.result.CycleResult;
import io.gantry.scheduler.api.result.Decision;
import io.gantry.scheduler.cycle.SchedulerWiring;
import io.gantry.scheduler.model.ClusterSnapshot;
import io.gantry.scheduler.model.JobInfo;
import io.gantry.scheduler.model.TaskInfo;
import io.gantry.scheduler.model.dra.DynamicResources;
import io.gantry.scheduler.sim.spec.ScenarioLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A snapshot written as a scenario replays to the same decisions: every example scenario the engine
 * runs is compiled, its first cycle decided, its snapshot written with {@link ScenarioWriter},
 * loaded again and decided again; each pod lands on the same node.
 */
class ScenarioWriterTest {
  static Stream<Path> examples() throws IOException {
    List<Path> runnable = new ArrayList<>();
    try (Stream<Path> files = Files.list(Path.of("../../examples"))) {
      for (Path p : files.sorted().toList()) {
        try {
          SimWorld world = ScenarioCompiler.compile(ScenarioLoader.load(p));
          // the writer does not carry DRA objects; writingDraObjectsIsRefused covers those
          if (world.dynamicResources().equals(DynamicResources.NONE)) {
            runnable.add(p);
          }
        } catch (ScenarioException e) {
          // uses a feature this build rejects
        }
      }
    }
    assertThat(runnable).hasSizeGreaterThan(3);
    return runnable.stream();
  }

  @Test
  void writingDraObjectsIsRefused() throws Exception {
    SimWorld world =
        ScenarioCompiler.compile(
            ScenarioLoader.load(Path.of("../../examples/dra-h100-by-selector.yaml")));
    ClusterSnapshot snapshot = Simulator.snapshot(world, world.start(), ImmutableSortedMap.of());

    assertThatThrownBy(() -> ScenarioWriter.write("replay", "", snapshot, world.config()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("the snapshot holds DRA objects");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("examples")
  void aWrittenSnapshotReplaysToTheSameDecisions(Path example) throws Exception {
    SimWorld world = ScenarioCompiler.compile(ScenarioLoader.load(example));
    ClusterSnapshot original = Simulator.snapshot(world, world.start(), ImmutableSortedMap.of());
    Map<String, String> expected = binds(original, world, false);

    String yaml =
        ScenarioWriter.write("replay", "written from " + example, original, world.config());
    SimWorld replayed = ScenarioCompiler.compile(ScenarioLoader.parse("replay.yaml", yaml));
    ClusterSnapshot again = Simulator.snapshot(replayed, replayed.start(), ImmutableSortedMap.of());

    assertThat(binds(again, replayed, true)).as(yaml).isEqualTo(expected);
    assertThat(again.nodes()).isEqualTo(original.nodes());
  }

  /**
   * Pod (namespace/pod name) → node of every bind decision of the first cycle. The written file
   * names each task after the original's pod, so there the task's name is the pod's.
   */
  private static Map<String, String> binds(
      ClusterSnapshot snapshot, SimWorld world, boolean written) {
    Map<String, String> pods = new HashMap<>();
    for (JobInfo j : snapshot.jobs()) {
      for (TaskInfo t : j.tasks()) {
        pods.put(t.id(), t.namespace() + "/" + (written ? t.name() : t.podName()));
      }
    }
    CycleResult result = new SchedulerWiring().cycle(world.config()).run(snapshot);
    Map<String, String> out = new HashMap<>();
    for (Decision d : result.decisions()) {
      if (d instanceof BindDecision) {
        out.put(pods.get(d.taskId()), ((BindDecision) d).nodeName());
      }
    }
    return out;
  }
}
