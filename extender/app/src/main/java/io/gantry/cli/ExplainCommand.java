package io.gantry.cli;

import io.gantry.kubemodel.explain.ExplainService;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code gantry explain}: why a job (PodGroup) runs or waits, on one screen: its place in the
 * allocation order, its queues' quota, fair share, allocation and limit and which holds it back,
 * the nodes' reasons, the nodes closest to fitting it, what reclaim or preempt would evict for it
 * (hypothetical) and how many gang members fit. On a scenario file, or live.
 */
@Command(
    name = "explain",
    mixinStandardHelpOptions = true,
    description = "Explain why a job runs or waits: on a scenario (SCENARIO JOB) or live (JOB).",
    exitCodeListHeading = "%nExit status:%n",
    exitCodeList = {
      "0:explained",
      "1:the scheduler or the cluster did not answer",
      "2:bad input: no such job or pod, a name several jobs match, an invalid file"
    })
final class ExplainCommand implements Callable<Integer> {
  @Parameters(
      arity = "1..2",
      paramLabel = "[SCENARIO] JOB",
      description =
          "A scenario file and a job in it, or only the job to explain it live. JOB: NAME or"
              + " NAMESPACE/NAME of a job (PodGroup), podgroup/NAME, or pod/NAME for a pod's job.")
  List<String> arguments;

  @Option(
      names = {"-n", "--namespace"},
      paramLabel = "NS",
      description = "The job's namespace, when its name is not unique.")
  String namespace;

  @Option(
      names = "--output",
      paramLabel = "FORMAT",
      defaultValue = "text",
      description = "text (one screen) or json. Default: ${DEFAULT-VALUE}.")
  SimulateCommand.Output output;

  @Mixin ExplainSource source;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    ExplainService.Format format = ExplainSource.format(output);
    String job = arguments.get(arguments.size() - 1);
    Optional<String> ns = Optional.ofNullable(namespace).filter(n -> !n.isEmpty());
    if (arguments.size() == 2) {
      source.requireScenarioOnly(spec.commandLine(), "explained");
      Path scenario = Path.of(arguments.get(0));
      return ExplainSource.answer(
          spec.commandLine(),
          () -> ExplainSource.fromScenario(scenario, s -> s.explain(ns, job, format)));
    }
    Map<String, String> query = new TreeMap<>();
    ns.ifPresent(n -> query.put("namespace", n));
    query.put("name", job);
    query.put("output", ExplainSource.outputParameter(format));
    return ExplainSource.answer(
        spec.commandLine(), () -> source.live("/explain", query, s -> s.explain(ns, job, format)));
  }
}
