package io.gantry.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every file in examples/ runs with --check. Files whose features are built pass; files that need
 * later work exit 2 naming the unsupported field. Every file in the sub-folders {@code kai/} (cases
 * from KAI's own test tables) and {@code regressions/} (cases where Gantry once decided wrongly)
 * must hold every expectation.
 */
class ExamplesTest {
  private static final Path EXAMPLES = Path.of("..", "..", "examples");

  /** file → expected exit code and a text the output must contain. */
  private static final Map<String, Expected> EXPECTED =
      Map.ofEntries(
          Map.entry("quickstart.yaml", new Expected(0, "every expectation held")),
          Map.entry("fair-share-weights.yaml", new Expected(0, "every expectation held")),
          Map.entry("quota-limits.yaml", new Expected(0, "every expectation held")),
          Map.entry("gang-all-or-nothing.yaml", new Expected(0, "every expectation held")),
          Map.entry("elastic.yaml", new Expected(0, "every expectation held")),
          Map.entry("queue-hierarchy.yaml", new Expected(0, "every expectation held")),
          Map.entry("fractional-gpus.yaml", new Expected(0, "every expectation held")),
          Map.entry("consolidation.yaml", new Expected(0, "every expectation held")),
          Map.entry("elastic-victims.yaml", new Expected(0, "every expectation held")),
          Map.entry("preemption-delay.yaml", new Expected(0, "every expectation held")),
          Map.entry("reclaim-at-fair-share.yaml", new Expected(0, "every expectation held")),
          Map.entry("reclaim-departments.yaml", new Expected(0, "every expectation held")),
          Map.entry("stale-gang.yaml", new Expected(0, "every expectation held")),
          Map.entry("time-based-fair-share.yaml", new Expected(0, "every expectation held")),
          Map.entry("preempt.yaml", new Expected(0, "every expectation held")),
          Map.entry("reclaim.yaml", new Expected(0, "every expectation held")),
          Map.entry("reclaim-min-runtime.yaml", new Expected(0, "every expectation held")),
          Map.entry("gpu-memory-sizes.yaml", new Expected(0, "every expectation held")),
          Map.entry("gpu-devices-pack.yaml", new Expected(0, "every expectation held")),
          Map.entry("gpu-devices-spread.yaml", new Expected(0, "every expectation held")),
          Map.entry(
              "placement-fragmentation-aware.yaml", new Expected(0, "every expectation held")),
          Map.entry("gpu-fraction-reclaim.yaml", new Expected(0, "every expectation held")),
          Map.entry("gpu-fraction-consolidation.yaml", new Expected(0, "every expectation held")),
          Map.entry("gpu-fraction-preempt.yaml", new Expected(0, "every expectation held")),
          Map.entry("gpu-memory-quota.yaml", new Expected(0, "every expectation held")),
          Map.entry("gpu-multi-device-fractions.yaml", new Expected(0, "every expectation held")),
          Map.entry("gpu-pipelined-fractions.yaml", new Expected(0, "every expectation held")),
          Map.entry("mig-mixed.yaml", new Expected(0, "every expectation held")),
          Map.entry("mig-single.yaml", new Expected(0, "every expectation held")),
          Map.entry("nvlink-domains.yaml", new Expected(0, "every expectation held")),
          Map.entry("nvlink-node-choice.yaml", new Expected(0, "every expectation held")),
          Map.entry("pipelined-at-start.yaml", new Expected(0, "every expectation held")),
          Map.entry("workload-pytorchjob.yaml", new Expected(0, "every expectation held")),
          Map.entry("workload-jobset.yaml", new Expected(0, "every expectation held")),
          Map.entry("queue-depth.yaml", new Expected(0, "every expectation held")),
          Map.entry("topology-rack.yaml", new Expected(0, "every expectation held")),
          Map.entry("topology-preferred-fallback.yaml", new Expected(0, "every expectation held")),
          Map.entry("topology-required-unmet.yaml", new Expected(0, "every expectation held")),
          Map.entry("topology-two-level.yaml", new Expected(0, "every expectation held")),
          Map.entry("topology-min-subgroup.yaml", new Expected(0, "every expectation held")),
          Map.entry("dra-h100-by-selector.yaml", new Expected(0, "every expectation held")),
          Map.entry("dra-gang-whole.yaml", new Expected(0, "every expectation held")),
          Map.entry("dra-claim-unmatched.yaml", new Expected(0, "every expectation held")),
          Map.entry("dra-shared-claim.yaml", new Expected(0, "every expectation held")),
          Map.entry("dra-sharing-config.yaml", new Expected(0, "every expectation held")),
          Map.entry("dra-node-selection.yaml", new Expected(0, "every expectation held")),
          Map.entry("dra-device-taints.yaml", new Expected(0, "every expectation held")),
          Map.entry("dra-shared-counters.yaml", new Expected(0, "every expectation held")));

  private static final List<String> MUST_HOLD_FOLDERS = List.of("kai", "regressions");

  private static final Expected HOLDS = new Expected(0, "every expectation held");

  record Expected(int exitCode, String contains) {}

  static List<String> files() throws IOException {
    List<String> files = new ArrayList<>(yamlNames(EXAMPLES, ""));
    for (String folder : MUST_HOLD_FOLDERS) {
      Path dir = EXAMPLES.resolve(folder);
      if (Files.isDirectory(dir)) {
        files.addAll(yamlNames(dir, folder + "/"));
      }
    }
    return files;
  }

  private static List<String> yamlNames(Path dir, String prefix) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString())
          .filter(n -> n.endsWith(".yaml"))
          .sorted()
          .map(n -> prefix + n)
          .toList();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("files")
  void runsWithCheck(String file) {
    Expected expected = file.contains("/") ? HOLDS : EXPECTED.get(file);
    assertThat(expected).as("every example has an expected outcome: " + file).isNotNull();

    CliRunner r = CliRunner.run("simulate", "--check", EXAMPLES.resolve(file).toString());

    assertThat(r.exitCode()).as(r.out() + r.err()).isEqualTo(expected.exitCode());
    assertThat(r.out() + r.err()).contains(expected.contains());
  }
}
