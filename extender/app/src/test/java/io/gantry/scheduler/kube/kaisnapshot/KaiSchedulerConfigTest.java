package io.gantry.scheduler.kube.kaisnapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gantry.kubemodel.config.SchedulerFileSpec;
import io.gantry.kubemodel.read.ScenarioException;
import io.gantry.scheduler.api.config.PlacementStrategy;
import io.gantry.scheduler.kube.config.NodePool;
import io.gantry.scheduler.kube.config.SchedulerConfigFile;
import io.gantry.scheduler.kube.config.SchedulerSettings;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** KAI's {@code config} and {@code schedulerParams} in Gantry's terms, and back. */
class KaiSchedulerConfigTest {
  private static ObjectNode json(String text) throws Exception {
    return (ObjectNode) SnapshotZip.JSON.readTree(text);
  }

  @Test
  void actionsPlacementAndQueueDepthAreTakenOverAndTheRestIsNamed() throws Exception {
    ObjectNode config =
        json(
            """
            {"Actions": "allocate, reclaim, preempt, consolidation, bogus",
             "Tiers": [{"Plugins": [
               {"Name": "predicates"}, {"Name": "proportion", "Arguments": {"kValue": "2"}},
               {"Name": "nodeplacement", "Arguments": {"gpu": "spread", "cpu": "binpack", "x": "1"}}]}],
             "QueueDepthPerAction": {"reclaim": 5, "stalegangeviction": 1}}
            """);
    ObjectNode params =
        json(
            """
            {"SchedulerName": "kai-scheduler",
             "PartitionParams": {"NodePoolLabelKey": "pool", "NodePoolLabelValue": "a"},
             "DetailedFitErrors": true}
            """);

    KaiSchedulerConfig.Mapped m = KaiSchedulerConfig.fromKai("s", config, params);

    assertThat(m.engine().actions())
        .containsExactly("allocate", "reclaim", "preempt", "consolidation");
    assertThat(m.engine().placement().gpu()).isEqualTo(PlacementStrategy.SPREAD);
    assertThat(m.engine().placement().cpu()).isEqualTo(PlacementStrategy.BINPACK);
    assertThat(m.engine().queueDepthPerAction().depths()).containsOnlyKeys("reclaim");
    assertThat(m.scope().schedulerName()).isEqualTo("kai-scheduler");
    assertThat(m.scope().pool()).isEqualTo(new NodePool(Optional.of("pool"), Optional.of("a")));
    assertThat(m.ignored())
        .containsExactly(
            "config.actions bogus",
            "config.tiers[0].plugins[2].arguments.x",
            "config.tiers plugins predicates proportion",
            "config.queueDepthPerAction.stalegangeviction",
            "schedulerParams.DetailedFitErrors");
  }

  @Test
  void withoutConfigItIsKaisDefaultsForTheDefaultScheduler() throws Exception {
    KaiSchedulerConfig.Mapped m = KaiSchedulerConfig.fromKai("s", json("{}"), json("{}"));

    assertThat(m.engine().actions())
        .containsExactly("allocate", "consolidation", "reclaim", "preempt", "stalegangeviction");
    assertThat(m.scope().schedulerName()).isEqualTo("kai-scheduler");
    assertThat(m.scope().pool()).isEqualTo(NodePool.ALL);
    assertThat(m.ignored()).isEmpty();
  }

  @Test
  void anUnknownPlacementIsNamedByItsField() throws Exception {
    ObjectNode config =
        json(
            "{\"tiers\": [{\"plugins\": [{\"name\": \"nodeplacement\", \"arguments\": {\"gpu\": \"pack\"}}]}]}");

    assertThatThrownBy(() -> KaiSchedulerConfig.fromKai("s", config, json("{}")))
        .isInstanceOf(ScenarioException.class)
        .hasMessageStartingWith("s: config.tiers[0].plugins[0].arguments.gpu: ");
  }

  @Test
  void gantrysSettingsReadBackAsThemselves() throws Exception {
    SchedulerSettings settings =
        SchedulerConfigFile.settings(SchedulerFileSpec.defaults(), "test", "default");

    KaiSchedulerConfig.Mapped m =
        KaiSchedulerConfig.fromKai(
            "s",
            KaiSchedulerConfig.toKaiConfig(settings.engine()),
            KaiSchedulerConfig.toKaiParams(settings));

    assertThat(m.engine()).isEqualTo(settings.engine());
    assertThat(m.scope().schedulerName()).isEqualTo(settings.schedulerName());
    assertThat(m.scope().pool()).isEqualTo(settings.nodePool());
  }
}
