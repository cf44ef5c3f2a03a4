package io.gantry.scheduler.kube.write;

import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.kubemodel.kai.PodGroupLifecycle;
import io.gantry.scheduler.kube.config.NodePool;
import io.gantry.scheduler.kube.write.StatusPlanner.PodGroupResources;
import io.gantry.scheduler.kube.write.StatusPlanner.PodGroupStatus;
import io.gantry.scheduler.model.ResourceVector;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The text of the patches StatusWriter sends, field for field. */
class StatusPatchesTest {
  private static final Instant NOW = Instant.parse("2026-03-01T10:05:00.125Z");
  private static final PodGroupStatus WAITING =
      new PodGroupStatus(
          "ml",
          "pg",
          Optional.of(
              List.of(StatusPlanner.condition("NotEnoughGpus: 2 GPUs are free", NodePool.ALL))),
          new PodGroupResources(
              ResourceVector.ZERO, ResourceVector.ZERO, new ResourceVector(0.5, 1500, 1 << 30)));

  @Test
  void aChangedConditionIsWrittenWithItsTransitionBeforeTheResources() {
    assertThat(
            StatusPatches.podGroupStatus(
                WAITING, Optional.of("4"), WAITING.resources().toKai(), NOW))
        .isEqualTo(
            "{\"status\":{\"schedulingConditions\":[{\"type\":\"UnschedulableOnNodePool\","
                + "\"nodePool\":\"default\",\"reason\":\"Unschedulable\",\"message\":"
                + "\"NotEnoughGpus: 2 GPUs are free\",\"reasons\":[{\"reason\":\"NotEnoughGpus\","
                + "\"message\":\"NotEnoughGpus: 2 GPUs are free\"}],\"status\":\"True\","
                + "\"transitionID\":\"4\",\"lastTransitionTime\":\"2026-03-01T10:05:00.125Z\"}],"
                + "\"resourcesStatus\":{\"allocated\":{\"cpu\":\"0m\",\"memory\":\"0\","
                + "\"nvidia.com/gpu\":\"0\"},\"allocatedNonPreemptible\":{\"cpu\":\"0m\","
                + "\"memory\":\"0\",\"nvidia.com/gpu\":\"0\"},\"requested\":{\"cpu\":\"1500m\","
                + "\"memory\":\"1073741824\",\"nvidia.com/gpu\":\"0.5\"}}}}");
  }

  @Test
  void conditionsThatDoNotChangeAreLeftOut() {
    assertThat(
            StatusPatches.podGroupStatus(
                WAITING, Optional.empty(), WAITING.resources().toKai(), NOW))
        .startsWith("{\"status\":{\"resourcesStatus\":{\"allocated\":");
  }

  @Test
  void annotationsAreSetInKeyOrderAndAnEmptyValueRemovesOne() {
    TreeMap<String, Optional<String>> changes = new TreeMap<>();
    changes.put(PodGroupLifecycle.STALE_SINCE, Optional.empty());
    changes.put(PodGroupLifecycle.LAST_START, Optional.of("2026-03-01T10:00:00Z"));

    assertThat(StatusPatches.annotations(changes))
        .isEqualTo(
            "{\"metadata\":{\"annotations\":{\"kai.scheduler/last-start-timestamp\":"
                + "\"2026-03-01T10:00:00Z\",\"kai.scheduler/stale-podgroup-timestamp\":null}}}");
  }
}
