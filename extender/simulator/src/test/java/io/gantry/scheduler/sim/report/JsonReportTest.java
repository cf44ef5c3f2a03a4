package io.gantry.scheduler.sim.report;

import static io.gantry.scheduler.sim.report.Results.amounts;
import static io.gantry.scheduler.sim.report.Results.event;
import static io.gantry.scheduler.sim.report.Results.group;
import static io.gantry.scheduler.sim.report.Results.job;
import static io.gantry.scheduler.sim.report.Results.node;
import static io.gantry.scheduler.sim.report.Results.queue;
import static io.gantry.scheduler.sim.report.Results.result;
import static io.gantry.scheduler.sim.report.Results.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gantry.scheduler.sim.SimulationResult;
import org.junit.jupiter.api.Test;

class JsonReportTest {

  /** Built afresh on each call, so two calls give equal but distinct values. */
  static SimulationResult twoTeams() {
    return result("two-teams")
        .cycles(1)
        .tasks(
            task("default/train-a", "worker-0").status("Binding").node("dgx-0"),
            task("default/infer", "pod-0")
                .status("Binding")
                .node("dgx-1")
                .groups("g0")
                .portion(1.0 / 3),
            task("default/train-b", "worker-0").message("no node fits"))
        .jobs(
            job("default/train-a").status("Binding").count("Binding", 1).queue("team-a"),
            job("default/infer").status("Binding").count("Binding", 1).queue("team-a"),
            job("default/train-b")
                .status("Pending")
                .count("Pending", 1)
                .queue("team-b")
                .message("quota has reached the allowable limit"))
        .queues(
            queue(
                "team-a",
                amounts(4, 0, 0),
                amounts(1.333333, 32000.4, 274877906944.0),
                amounts(4, -1, -1)))
        .nodes(node("dgx-0", 7, 0, 1), node("dgx-1", 7, 0, 1, group("g0", 0.505)))
        .events(event(1, "default/train-a", "Scheduled", "bound to \"dgx-0\"\nin cycle 1"))
        .build();
  }

  @Test
  void writesTheDocumentedShapeOnOneLine() {
    String expected =
        "{\"scenario\":\"two-teams\",\"cycles\":1,\"tasks\":["
            + "{\"job\":\"default/train-a\",\"task\":\"worker-0\",\"status\":\"Binding\","
            + "\"node\":\"dgx-0\",\"gpuGroups\":[],\"gpuPortion\":null,\"message\":null},"
            + "{\"job\":\"default/infer\",\"task\":\"pod-0\",\"status\":\"Binding\","
            + "\"node\":\"dgx-1\",\"gpuGroups\":[\"g0\"],\"gpuPortion\":0.33,\"message\":null},"
            + "{\"job\":\"default/train-b\",\"task\":\"worker-0\",\"status\":\"Pending\",\"node\":null,\"gpuGroups\":[],\"gpuPortion\":null,\"message\":\"no"
            + " node fits\"}],\"jobs\":["
            + "{\"job\":\"default/train-a\",\"status\":\"Binding\",\"taskStatuses\":{\"Binding\":1},"
            + "\"queue\":\"team-a\",\"message\":null},"
            + "{\"job\":\"default/infer\",\"status\":\"Binding\",\"taskStatuses\":{\"Binding\":1},"
            + "\"queue\":\"team-a\",\"message\":null},"
            + "{\"job\":\"default/train-b\",\"status\":\"Pending\",\"taskStatuses\":{\"Pending\":1},\"queue\":\"team-b\",\"message\":\"quota"
            + " has reached the allowable limit\"}],\"queues\":["
            + "{\"queue\":\"team-a\",\"fairShare\":{\"gpu\":4,\"cpu\":0,\"memory\":0},"
            + "\"allocated\":{\"gpu\":1.33,\"cpu\":32000,\"memory\":274877906944}}],\"nodes\":["
            + "{\"node\":\"dgx-0\",\"idleGpus\":7,\"releasingGpus\":0,\"usedGpus\":1,"
            + "\"sharedGpuGroups\":[]},"
            + "{\"node\":\"dgx-1\",\"idleGpus\":7,\"releasingGpus\":0,\"usedGpus\":1,"
            + "\"sharedGpuGroups\":[{\"group\":\"g0\",\"usedFraction\":0.51}]}],\"events\":["
            + "{\"cycle\":1,\"object\":\"default/train-a\",\"reason\":\"Scheduled\",\"message\":\"bound"
            + " to \\\"dgx-0\\\"\\n"
            + "in cycle 1\"}]}";

    assertThat(JsonReport.toJson(twoTeams())).isEqualTo(expected);
  }

  @Test
  void equalResultsGiveIdenticalBytes() {
    String first = JsonReport.toJson(twoTeams());

    assertThat(JsonReport.toJson(twoTeams())).isEqualTo(first);
    assertThat(first).doesNotContain("\n");
  }

  @Test
  void taskStatusesAreWrittenInSortedOrder() {
    SimulationResult r =
        result("mixed")
            .jobs(job("default/a").status("Mixed").count("Running", 3).count("Pending", 1))
            .build();

    assertThat(JsonReport.toJson(r)).contains("\"taskStatuses\":{\"Pending\":1,\"Running\":3}");
  }

  @Test
  void emptyResultHasEveryKeyWithEmptyLists() {
    assertThat(JsonReport.toJson(result("empty").cycles(0).build()))
        .isEqualTo(
            "{\"scenario\":\"empty\",\"cycles\":0,\"tasks\":[],\"jobs\":[],\"queues\":[],"
                + "\"nodes\":[],\"events\":[]}");
  }

  @Test
  void rejectsANumberJsonCannotHold() {
    SimulationResult r =
        result("nan")
            .queues(queue("q", amounts(Double.NaN, 0, 0), amounts(0, 0, 0), amounts(0, 0, 0)))
            .build();

    assertThatThrownBy(() -> JsonReport.toJson(r))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("not a finite number: NaN");
  }
}
