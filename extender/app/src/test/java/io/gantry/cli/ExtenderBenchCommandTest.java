package io.gantry.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ExtenderBenchCommandTest {
  @Test
  void aSmallRunPrintsEachVerbsLatencyAgainstTheBaselineAndTheLoad() {
    CliRunner r =
        CliRunner.run(
            "extender-bench",
            "--nodes",
            "40",
            "--pending-gangs",
            "5",
            "--running-pods",
            "20",
            "--callers",
            "2",
            "--rounds",
            "60",
            "--warmup",
            "10");
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out())
        .contains("extender at 40 nodes, 2 callers, 20 pending pods: planning cycle")
        .containsPattern(
            "\\d+ cores; 1-minute load average -?[\\d.]+ before the run, -?[\\d.]+ after")
        .containsPattern("(?m)^filter +[\\d.]+ +[\\d.]+ +[\\d.]+$")
        .containsPattern("(?m)^prioritize +[\\d.]+ +[\\d.]+ +[\\d.]+$")
        // the baseline's own ratio is 1 by definition
        .containsPattern("(?m)^baseline filter \\(pod not Gantry's\\) +[\\d.]+ +[\\d.]+ +1\\.00$");
  }

  @Test
  void noCallersIsAUsageErrorNamingTheFlags() {
    CliRunner r = CliRunner.run("extender-bench", "--nodes", "40", "--callers", "0");
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err()).contains("--callers and --rounds must be at least 1, --warmup at least 0");
  }
}
