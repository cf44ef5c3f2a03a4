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

import io.gantry.scheduler.sim.SimulationResult;
import io.gantry.scheduler.sim.SimulationResult.Amounts;
import io.gantry.scheduler.sim.SimulationResult.ClaimResult;
import io.gantry.scheduler.sim.SimulationResult.QueueResult;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TextReportTest {

  private static final long GIB = 1L << 30;
  private static final String NO_GPUS =
      "no nodes with enough resources were found: 2 node(s) didn't have enough resources: GPUs.";

  private static final SimulationResult RESULT =
      result("two-teams")
          .cycles(2)
          .tasks(
              // Listed out of job order on purpose: the report groups tasks by job.
              task("default/train-b", "worker-0"),
              task("default/train-a", "worker-0").status("Running").node("dgx-0"),
              task("default/infer", "pod-0")
                  .status("Binding")
                  .node("dgx-1")
                  .groups("g0")
                  .portion(0.5),
              task("default/train-a", "worker-1").message("gang not ready"))
          .jobs(
              job("default/train-a").status("Mixed").count("Running", 1).count("Pending", 1),
              job("default/train-b").count("Pending", 1).message(NO_GPUS),
              job("default/infer").status("Binding").count("Binding", 1))
          .queues(
              queue(
                  "team-a",
                  amounts(4.5, 16000, 64 * GIB),
                  amounts(4, 8500, 32 * GIB + 3 * GIB / 4),
                  amounts(8, -1, -1)),
              queue("team-b", amounts(0, 0, 0), amounts(0, 0, 0), amounts(-1, -1, -1)))
          .nodes(
              node("dgx-0", 7, 0, 1), node("dgx-1", 6, 1, 1, group("g0", 0.5), group("g1", 0.25)))
          .events(
              event(1, "default/train-a", "Scheduled", "bound"),
              event(2, "default/train-b", "Unschedulable", "first line\nsecond line"))
          .build();

  @Test
  void printsTitleAndAlignedTables() {
    assertThat(TextReport.toText(RESULT))
        .isEqualTo(
            """
            Scenario two-teams: 2 cycles
            Summary: 2 placed, 2 pending, 0 evicted; GPUs 2 of 16 allocated (12.5%)

            Placements
              JOB              TASK      STATUS   NODE   SHARED GPU  WHY
              default/train-a  worker-0  Running  dgx-0  -
              default/train-a  worker-1  Pending  -      -           gang not ready
              default/train-b  worker-0  Pending  -      -
                  why: no nodes with enough resources were found: 2 node(s) didn't have enough resources: GPUs.
              default/infer    pod-0     Binding  dgx-1  0.5 [g0]

            Queues
              QUEUE   QUOTA GPUS  FAIR GPUS  ALLOC GPUS  FAIR CPU (cores)  ALLOC CPU (cores)  FAIR MEMORY (GiB)  ALLOC MEMORY (GiB)
              team-a           8        4.5           4                16                8.5               64.0                32.8
              team-b   unlimited          0           0                 0                  0                0.0                 0.0

            Nodes
              NODE   IDLE GPUS  RELEASING GPUS  USED GPUS  SHARED GROUPS
              dgx-0          7               0          1  -
              dgx-1          6               1          1  g0: 0.5, g1: 0.25

            Events
              CYCLE  OBJECT           REASON         MESSAGE
                  1  default/train-a  Scheduled      bound
                  2  default/train-b  Unschedulable  first line
                                                     second line
            """);
  }

  @Test
  void aShortWhyStaysInItsColumnAndTheTaskMessageWinsOverTheJobs() {
    SimulationResult r =
        result("why")
            .tasks(
                task("default/a", "t-0").message("own reason"),
                task("default/a", "t-1"),
                task("default/a", "t-2").status("Running").node("n-0"))
            .jobs(job("default/a").message("job reason"))
            .build();

    assertThat(TextReport.toText(r).lines())
        .containsSequence(
            "  JOB        TASK  STATUS   NODE  SHARED GPU  WHY",
            "  default/a  t-0   Pending  -     -           own reason",
            "  default/a  t-1   Pending  -     -           job reason",
            "  default/a  t-2   Running  n-0   -");
  }

  @Test
  void aWhyOfExactlyTheLimitStaysInline() {
    String limit = "x".repeat(TextReport.MAX_INLINE_WHY);
    SimulationResult r = result("why").tasks(task("default/a", "t-0").message(limit)).build();

    assertThat(TextReport.toText(r).lines())
        .contains("  default/a  t-0   Pending  -     -           " + limit)
        .noneMatch(line -> line.strip().startsWith("why:"));
  }

  @Test
  void aMultiLineWhyGetsContinuationLinesUnderItsLabel() {
    SimulationResult r =
        result("why").tasks(task("default/a", "t-0").message("first\nsecond")).build();

    assertThat(TextReport.toText(r).lines())
        .containsSequence(
            "  default/a  t-0   Pending  -     -", "      why: first", "           second");
  }

  @Test
  void emptySectionsSayNone() {
    assertThat(TextReport.toText(result("empty").cycles(1).build()))
        .isEqualTo(
            """
            Scenario empty: 1 cycle
            Summary: 0 placed, 0 pending, 0 evicted; no GPUs

            Placements
              (none)

            Queues
              (none)

            Nodes
              (none)

            Events
              (none)
            """);
  }

  @Test
  void eachResourceHasOneUnitNamedInItsColumnHeads() {
    SimulationResult r =
        result("units")
            .queues(
                queue(
                    "q",
                    amounts(0.25, 500, GIB / 2),
                    amounts(2, 128_000, 1536 * GIB),
                    amounts(1, -1, -1)))
            .nodes(node("n", 6, 1, 1))
            .build();

    assertThat(TextReport.toText(r).lines())
        .containsSequence(
            "  QUEUE  QUOTA GPUS  FAIR GPUS  ALLOC GPUS  FAIR CPU (cores)  ALLOC CPU (cores)"
                + "  FAIR MEMORY (GiB)  ALLOC MEMORY (GiB)",
            "  q               1       0.25           2               0.5                128"
                + "                0.5              1536.0")
        .containsSequence(
            "  NODE  IDLE GPUS  RELEASING GPUS  USED GPUS  SHARED GROUPS",
            "  n             6               1          1  -");
  }

  @Test
  void claimsShowAConfigColumnOnlyWhenSomeAllocationPassesConfigOn() {
    ClaimResult shared =
        new ClaimResult(
            "default/a",
            List.of("gpu: gpu.gantry.io/n1/gpu-0"),
            List.of("FromClaim gpu: gpu.gantry.io {\"computeMode\":\"mps\"}"),
            Optional.of("n1"),
            List.of("a-0"));
    ClaimResult plain =
        new ClaimResult(
            "default/b",
            List.of("gpu: gpu.gantry.io/n1/gpu-1"),
            List.of(),
            Optional.of("n1"),
            List.of("b-0"));

    String withConfig = TextReport.toText(result("dra").claims(shared, plain).build());
    String without = TextReport.toText(result("dra").claims(plain).build());

    assertThat(withConfig)
        .containsPattern("CLAIM +NODE +DEVICES +CONFIG +RESERVED FOR")
        .containsPattern(
            "default/a +n1 +gpu: gpu.gantry.io/n1/gpu-0 +FromClaim gpu: gpu.gantry.io"
                + " \\{\"computeMode\":\"mps\"\\} +a-0")
        .containsPattern("default/b +n1 +gpu: gpu.gantry.io/n1/gpu-1 +- +b-0");
    assertThat(without)
        .containsPattern("CLAIM +NODE +DEVICES +RESERVED FOR")
        .doesNotContain("CONFIG");
  }

  @Test
  void equalResultsGiveIdenticalText() {
    assertThat(TextReport.toText(RESULT)).isEqualTo(TextReport.toText(RESULT));
  }

  @Test
  void theQueuesAreDrawnAsTheirTree() {
    Amounts none = amounts(0, 0, 0);
    SimulationResult r =
        result("tree")
            .queues(
                new QueueResult("a1", none, none, none, Optional.of("a")),
                new QueueResult("root", none, none, none, Optional.empty()),
                new QueueResult("a", none, none, none, Optional.of("root")),
                new QueueResult("b", none, none, none, Optional.of("root")))
            .build();

    assertThat(TextReport.toText(r))
        .containsPattern("(?m)^  root +0.*\n  ├─ a +0.*\n  │  └─ a1 +0.*\n  └─ b +0");
  }

  @Test
  void aFilterKeepsTheJobItsTasksQueuesAndEvents() {
    SimulationResult r =
        result("filter")
            .tasks(
                task("default/a", "t-0").status("Running").node("n-0"),
                task("default/b", "t-0").status("Running").node("n-1"))
            .jobs(job("default/a").queue("qa"), job("default/b").queue("qb"))
            .nodes(node("n-0", 0, 0, 1), node("n-1", 0, 0, 1))
            .events(
                event(1, "default/a-t-0", "Scheduled", "x"),
                event(1, "default/b-t-0", "Scheduled", "y"))
            .build();

    SimulationResult a = new ResultFilter(Optional.of("a"), Optional.empty()).apply(r);
    assertThat(a.jobs()).extracting(SimulationResult.JobResult::job).containsExactly("default/a");
    assertThat(a.tasks()).extracting(SimulationResult.TaskResult::job).containsExactly("default/a");
    assertThat(a.nodes()).extracting(SimulationResult.NodeResult::node).containsExactly("n-0");
    assertThat(a.events())
        .extracting(SimulationResult.EventResult::object)
        .containsExactly("default/a-t-0");

    SimulationResult qb = new ResultFilter(Optional.empty(), Optional.of("qb")).apply(r);
    assertThat(qb.jobs()).extracting(SimulationResult.JobResult::job).containsExactly("default/b");
  }
}
