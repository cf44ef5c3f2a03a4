package io.gantry.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.withinPercentage;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * {@code gantry bench} on workloads small enough for a unit test: what it prints, not how fast (the
 * figures are measured by running it, never asserted in tests).
 */
class BenchCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String[] SMALL = {
    "bench",
    "--nodes",
    "40",
    "--pending-jobs",
    "400",
    "--fractional-share",
    "0.5",
    "--cpu-only-share",
    "0.1",
    "--running-pods",
    "100",
    "--warmup",
    "0",
    "--cycles",
    "2"
  };

  @Test
  void jsonHasOneObjectWithEveryFigureAndTheBaselineAgrees() throws Exception {
    CliRunner r = CliRunner.run(concat(SMALL, "--output", "json"));

    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out().lines()).hasSize(1);
    JsonNode o = JSON.readTree(r.out());
    assertThat(o.get("preset").asText()).isEqualTo("custom");
    assertThat(o.get("nodes").asInt()).isEqualTo(40);
    assertThat(o.get("pendingPods").asInt()).isEqualTo(400);
    assertThat(o.get("podsPlaced").asLong()).isPositive();
    assertThat(o.get("pendingPodsWithoutFitMessage").asLong()).isZero();
    assertThat(o.get("identicalDecisions").asBoolean()).isTrue();
    for (String field :
        new String[] {
          "podsPerSecond",
          "baselinePodsPerSecond",
          "ratio",
          "cycleP50Millis",
          "cycleP99Millis",
          "snapshotBuildMillis",
          "peakHeapBytes"
        }) {
      assertThat(o.get(field).isNumber()).as(field).isTrue();
    }
    assertThat(o.get("actionP50Millis").has("allocate")).isTrue();
    assertThat(r.err()).contains("custom: cycle 2/2", "custom: baseline cycle");
  }

  @Test
  void theFirstCycleAfterStartAndTheAllocateCpuTimeAreReported() throws Exception {
    String[] oneWarmUp = SMALL.clone();
    oneWarmUp[Arrays.asList(SMALL).indexOf("--warmup") + 1] = "1";
    CliRunner r = CliRunner.run(concat(oneWarmUp, "--no-baseline", "--output", "json"));

    assertThat(r.exitCode()).as(r.err()).isZero();
    JsonNode o = JSON.readTree(r.out());
    // the JSON rounds every figure to hundredths, so a rate is checked to within 2%
    double firstMillis = o.get("firstCycleAllocateMillis").asDouble();
    assertThat(firstMillis).isPositive();
    assertThat(o.get("firstCycleAllocatePodsPerSecond").asDouble())
        .isCloseTo(o.get("podsPlaced").asLong() * 1000.0 / firstMillis, withinPercentage(2));
    assertThat(o.get("allocateCpuP50Millis").asDouble()).isPositive();
    assertThat(o.get("allocateCpuPodsPerSecond").asDouble())
        .isCloseTo(
            o.get("podsPlaced").asLong() * 1000.0 / o.get("allocateCpuP50Millis").asDouble(),
            withinPercentage(2));
    assertThat(r.err())
        .containsPattern("custom: warm-up cycle 1/1: [0-9.]+ ms \\(allocate [0-9.]+ ms\\)");
  }

  @Test
  void theHeapTheJvmStartedWithIsReportedBesideItsLimit() throws Exception {
    JsonNode o =
        JSON.readTree(CliRunner.run(concat(SMALL, "--no-baseline", "--output", "json")).out());

    // the command runs in this JVM: its heap is this test's
    assertThat(o.get("initialHeapBytes").asLong())
        .isEqualTo(ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getInit())
        .isPositive()
        .isLessThanOrEqualTo(o.get("maxHeapBytes").asLong());
  }

  @Test
  void theAllocateActionsBytesPerPlacedPodAreReportedInJsonAndTheTable() throws Exception {
    JsonNode o =
        JSON.readTree(CliRunner.run(concat(SMALL, "--no-baseline", "--output", "json")).out());
    CliRunner text = CliRunner.run(concat(SMALL, "--no-baseline"));

    // HotSpot counts a thread's allocations; placing a pod allocates at least its decision
    assertThat(o.get("allocateBytesPerPod").isNumber()).isTrue();
    assertThat(o.get("allocateBytesPerPod").asDouble()).isGreaterThan(100);
    assertThat(text.out().lines().findFirst().orElseThrow()).contains("alloc B/pod");
    assertThat(text.out().lines().skip(1).findFirst().orElseThrow())
        .containsPattern("custom +40 .* [0-9]{3,} ");
  }

  @Test
  void textIsATableAndNoBaselineLeavesTheRatioOut() {
    CliRunner r = CliRunner.run(concat(SMALL, "--no-baseline"));

    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out().lines().toList()).hasSize(2);
    assertThat(r.out()).startsWith("preset").contains("custom");
    assertThat(r.err()).doesNotContain("baseline cycle");
  }

  @Test
  void theSameSeedGivesTheSameDecisions() throws Exception {
    JsonNode a = JSON.readTree(CliRunner.run(concat(SMALL, "--output", "json")).out());
    JsonNode b = JSON.readTree(CliRunner.run(concat(SMALL, "--output", "json")).out());

    assertThat(a.get("podsPlaced")).isEqualTo(b.get("podsPlaced"));
    assertThat(a.get("pendingPodsWithFitMessage")).isEqualTo(b.get("pendingPodsWithFitMessage"));
  }

  @Test
  void theReclaimPresetSearchesAndLeavesTheGangPendingWithItsMessage() throws Exception {
    CliRunner r =
        CliRunner.run(
            "bench",
            "--preset",
            "reclaim-unschedulable-1k",
            "--nodes",
            "12",
            "--running-pods",
            "96",
            "--warmup",
            "0",
            "--cycles",
            "1",
            "--output",
            "json");

    assertThat(r.exitCode()).as(r.err()).isZero();
    JsonNode o = JSON.readTree(r.out());
    assertThat(o.get("actionP50Millis").has("reclaim")).isTrue();
    assertThat(o.get("podsPlaced").asLong()).isZero();
    assertThat(o.get("pendingPodsWithFitMessage").asLong()).isEqualTo(10);
    assertThat(o.get("identicalDecisions").asBoolean()).isTrue();
  }

  @Test
  void anActionThisBuildCannotRunStopsTheWorkload() {
    CliRunner r = CliRunner.run(concat(SMALL, "--actions", "allocate,nonsense"));

    assertThat(r.exitCode()).isEqualTo(BenchCommand.INVALID);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).contains("custom: needs the nonsense action, which this build cannot run");
  }

  @Test
  void theTopologyPresetRunsTheConstrainedJobBesideTheSameJobWithout() throws Exception {
    CliRunner r =
        CliRunner.run(
            "bench",
            "--preset",
            "topology-rack-1k",
            "--nodes",
            "300",
            "--running-pods",
            "0",
            "--warmup",
            "0",
            "--cycles",
            "1",
            "--output",
            "json");

    assertThat(r.exitCode()).as(r.err()).isZero();
    JsonNode o = JSON.readTree(r.out());
    assertThat(o.get("preset").asText()).isEqualTo("topology-rack-1k");
    JsonNode points = o.get("points");
    assertThat(points).hasSize(2);
    assertThat(points.get(0).get("preset").asText()).isEqualTo("topology-rack-1k-rack");
    assertThat(points.get(1).get("preset").asText()).isEqualTo("topology-rack-1k-none");
    for (JsonNode p : points) {
      assertThat(p.get("podsPlaced").asLong()).isEqualTo(512);
      assertThat(p.get("identicalDecisions").asBoolean()).isTrue();
    }
    assertThat(r.err()).contains("topology-rack-1k: cycle p50 ", " ms with the rack constraint, ");
  }

  @Test
  void anUnknownPresetAndABadShareAreUsageErrors() {
    assertThat(CliRunner.run("bench", "--preset", "nope").err())
        .contains("unknown preset \"nope\"; presets: alloc-5k, mixed-5k");
    CliRunner bad = CliRunner.run("bench", "--nodes", "10", "--cpu-only-share", "1.5");
    assertThat(bad.exitCode()).isEqualTo(2);
    assertThat(bad.err()).contains("cpu-only-share must be in [0, 1], got 1.5");
  }

  @Test
  void nodesWithNvlinkDomainsRunMultiGpuPodsAndTheBaselineAgrees() throws Exception {
    CliRunner r =
        CliRunner.run(
            "bench",
            "--nodes",
            "40",
            "--pending-jobs",
            "60",
            "--gpus-per-pod",
            "4",
            "--running-pods",
            "100",
            "--gpu-domains",
            "2",
            "--warmup",
            "0",
            "--cycles",
            "1",
            "--output",
            "json");

    assertThat(r.exitCode()).as(r.err()).isZero();
    JsonNode o = JSON.readTree(r.out());
    assertThat(o.get("podsPlaced").asLong()).isPositive();
    assertThat(o.get("identicalDecisions").asBoolean()).isTrue();
  }

  @Test
  void gpuDomainsThatDoNotDivideTheNodesGpusAreAUsageError() {
    CliRunner bad = CliRunner.run("bench", "--nodes", "10", "--gpu-domains", "3");

    assertThat(bad.exitCode()).isEqualTo(2);
    assertThat(bad.err())
        .contains("gpu-domains must divide gpus-per-node (8) into domains of equal size, got 3");
  }

  private static String[] concat(String[] a, String... b) {
    String[] out = new String[a.length + b.length];
    System.arraycopy(a, 0, out, 0, a.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
