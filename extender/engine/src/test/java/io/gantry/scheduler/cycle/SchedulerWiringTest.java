package io.gantry.scheduler.cycle;

import static io.gantry.scheduler.testing.Jobs.job;
import static io.gantry.scheduler.testing.Nodes.node;
import static io.gantry.scheduler.testing.Queues.queue;
import static io.gantry.scheduler.testing.Tasks.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.scheduler.actions.ActionRegistry;
import io.gantry.scheduler.api.config.ConfigException;
import io.gantry.scheduler.api.config.Placement;
import io.gantry.scheduler.api.config.PluginSetting;
import io.gantry.scheduler.api.config.SchedulerConfig;
import io.gantry.scheduler.framework.Action;
import io.gantry.scheduler.framework.ActionType;
import io.gantry.scheduler.framework.Session;
import io.gantry.scheduler.plugins.PluginRegistry;
import io.gantry.scheduler.testing.Snapshots;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** One configuration value in, one validated cycle out; errors name the key. */
class SchedulerWiringTest {

  record BadConfig(String name, SchedulerConfig config, String key, String message) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<BadConfig> badConfigs() {
    return Stream.of(
        new BadConfig(
            "an unknown action",
            config(List.of("allocate", "shuffle"), Map.of()),
            "actions",
            "actions: unknown action \"shuffle\"; KAI's actions are allocate, consolidation,"
                + " reclaim, preempt, stalegangeviction"),
        new BadConfig(
            "an unknown plugin",
            config(
                List.of("allocate"),
                Map.of("binpack", new PluginSetting(Optional.of(true), ImmutableSortedMap.of()))),
            "plugins.binpack",
            "plugins.binpack: unknown plugin; known plugins: predicates, proportion, priority,"
                + " nodeavailability, resourcetype, podaffinity, elastic, kubeflow, ray,"
                + " subgrouporder, taskorder, nominatednode, dynamicresources, minruntime,"
                + " topology, snapshot, sg-nodelocalgreedy, sg-multinodegang, gpupack, gpuspread,"
                + " nodeplacement, fragmentationaware, randomfit, bestfit, dotproduct,"
                + " gpupacking, gpudomain, gpusharingorder, numa, reflectjoborder"),
        new BadConfig(
            "a bad plugin argument",
            config(
                List.of("allocate"),
                Map.of(
                    "proportion",
                    new PluginSetting(Optional.empty(), ImmutableSortedMap.of("kValue", "high")))),
            "plugins.proportion.arguments.kValue",
            "plugins.proportion.arguments.kValue: expected a number, got \"high\""));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badConfigs")
  void aBadSettingStopsTheCycleBeingBuiltNamingTheKey(BadConfig c) {
    assertThatThrownBy(() -> new SchedulerWiring().cycle(c.config()))
        .isInstanceOfSatisfying(
            ConfigException.class,
            e -> {
              assertThat(e.key()).isEqualTo(c.key());
              assertThat(e.getMessage()).isEqualTo(c.message());
            });
  }

  @Test
  void injectedActionsRunInTheConfiguredOrderOnOneSessionPerCycle() {
    List<String> calls = new ArrayList<>();
    ActionRegistry actions =
        ActionRegistry.ofSuppliers(
            ImmutableMap.of(
                ActionType.ALLOCATE, () -> recording(ActionType.ALLOCATE, calls),
                ActionType.RECLAIM, () -> recording(ActionType.RECLAIM, calls)));
    SchedulingCycle cycle =
        new SchedulerWiring(actions, new PluginRegistry())
            .cycle(config(List.of("reclaim", "allocate"), Map.of()));
    var snapshot =
        Snapshots.of(
            List.of(node("n1").gpus(1).build()),
            List.of(queue("q").build()),
            List.of(job("j").queue("q").task(task("t0").gpus(1)).build()));

    cycle.run(snapshot);
    cycle.run(snapshot);

    assertThat(calls).containsExactly("reclaim:1", "allocate:1", "reclaim:1", "allocate:1");
  }

  private static Action recording(ActionType type, List<String> calls) {
    return new Action() {
      @Override
      public ActionType type() {
        return type;
      }

      @Override
      public void execute(Session session) {
        calls.add(type.actionName() + ":" + session.jobs().size());
      }
    };
  }

  private static SchedulerConfig config(List<String> actions, Map<String, PluginSetting> plugins) {
    return new SchedulerConfig(
        ImmutableList.copyOf(actions), ImmutableSortedMap.copyOf(plugins), Placement.DEFAULTS);
  }
}
