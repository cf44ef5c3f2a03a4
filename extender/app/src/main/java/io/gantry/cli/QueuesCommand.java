package io.gantry.cli;

import io.gantry.kubemodel.explain.ExplainService;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code gantry queues}: the queue tree with each queue's quota, fair share, allocation and limit,
 * its waiting jobs and the first of them in the order the next allocate would try them. On a
 * scenario file, or live.
 */
@Command(
    name = "queues",
    mixinStandardHelpOptions = true,
    description = "Show the queue tree: quota, fair share, allocation, limit, waiting jobs.",
    exitCodeListHeading = "%nExit status:%n",
    exitCodeList = {
      "0:shown",
      "1:the scheduler or the cluster did not answer",
      "2:bad input: an invalid file or option"
    })
final class QueuesCommand implements Callable<Integer> {
  @Parameters(
      arity = "0..1",
      paramLabel = "SCENARIO",
      description = "A scenario file; without one, the live cluster.")
  List<Path> scenario;

  @Option(
      names = "--output",
      paramLabel = "FORMAT",
      defaultValue = "text",
      description = "text (a table) or json. Default: ${DEFAULT-VALUE}.")
  SimulateCommand.Output output;

  @Mixin ExplainSource source;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    ExplainService.Format format = ExplainSource.format(output);
    if (scenario != null && !scenario.isEmpty()) {
      source.requireScenarioOnly(spec.commandLine(), "shown");
      return ExplainSource.answer(
          spec.commandLine(),
          () -> ExplainSource.fromScenario(scenario.get(0), s -> s.queues(format)));
    }
    return ExplainSource.answer(
        spec.commandLine(),
        () ->
            source.live(
                "/queues",
                Map.of("output", ExplainSource.outputParameter(format)),
                s -> s.queues(format)));
  }
}
