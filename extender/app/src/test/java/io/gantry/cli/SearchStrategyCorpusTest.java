package io.gantry.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.kubemodel.read.ScenarioException;
import io.gantry.scheduler.api.config.SearchStrategy;
import io.gantry.scheduler.cycle.SchedulerWiring;
import io.gantry.scheduler.sim.Simulator;
import io.gantry.scheduler.sim.report.JsonReport;
import io.gantry.scheduler.sim.spec.ScenarioLoader;
import io.gantry.scheduler.sim.spec.ScenarioSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The indexed engine and the baseline strategy (score and sort every node for every task, recompute
 * everything) report exactly the same for every scenario of {@code examples/} and the random
 * corpus: decisions, events, fit messages, queues and nodes, cycle by cycle. GoldenOutputTest pins
 * the indexed engine's output; this test pins that the optimisations change none of it.
 */
class SearchStrategyCorpusTest {
  private static final Path EXAMPLES = Path.of("..", "..", "examples");
  private static final Path CORPUS = Path.of("src", "test", "resources", "corpus");

  static List<Path> scenarios() throws IOException {
    return Stream.concat(yaml(EXAMPLES), yaml(CORPUS)).toList();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("scenarios")
  void baselineReportsWhatTheIndexedEngineReports(Path file) {
    assertThat(report(file, SearchStrategy.BASELINE))
        .isEqualTo(report(file, SearchStrategy.INDEXED));
  }

  /** The JSON report, or the error of a scenario the engine rejects. */
  private static String report(Path file, SearchStrategy strategy) {
    try {
      ScenarioSpec spec = ScenarioLoader.load(file);
      return JsonReport.toJson(
          new Simulator(new SchedulerWiring(), strategy).run(spec, OptionalInt.empty()));
    } catch (ScenarioException e) {
      return "rejected: " + e.getMessage();
    }
  }

  private static Stream<Path> yaml(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList().stream();
    }
  }
}
