package io.gantry.scheduler.actions;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import io.gantry.scheduler.api.result.ScenarioState;
import io.gantry.scheduler.framework.AccumulatedScenario;
import io.gantry.scheduler.framework.ActionObserver;
import io.gantry.scheduler.framework.JobState;
import io.gantry.scheduler.framework.NodeState;
import io.gantry.scheduler.framework.ScenarioGenerator;
import io.gantry.scheduler.framework.Session;
import io.gantry.scheduler.framework.Statement;
import io.gantry.scheduler.framework.TaskState;
import io.gantry.scheduler.framework.TasksToAllocate;
import io.gantry.scheduler.framework.VictimBatch;
import io.gantry.scheduler.model.PodSet;
import io.gantry.scheduler.model.Resources;
import io.gantry.scheduler.model.TaskStatus;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * Finds the victims that let one pending job run (kai-reference §4.11). For each scenario generator
 * in plugin order it probes partial jobs — the first k of the job's tasks to allocate, k = 1, 2, 4,
 * … up to all n, then a binary search between the last success and the first failure, and a final
 * probe with all n. A successful partial probe is discarded, but its victims are recorded and seed
 * every later probe. Each probe pops victim batches from the victim queue, prunes accumulated sets
 * with the scenario filters, and simulates what the generator makes of them, skipping scenarios
 * that already failed for this job. Time is checked between scenarios.
 */
final class JobSolver {
  private final Session session;
  private final SearchBudget.Job budget;
  private final ScenarioSimulator simulator;
  private final Supplier<List<JobState>> victimJobs;
  private final ScenarioFingerprints failed = new ScenarioFingerprints();
  private final String action;
  private final ActionObserver observer;

  /** How the search ended; a solved search carries its open statement. */
  record Outcome(SearchResult result, Optional<Statement> statement) {
    Outcome {
      requireNonNull(result, "result is null");
      requireNonNull(statement, "statement is null");
    }

    static Outcome of(SearchResult result) {
      return new Outcome(result, Optional.empty());
    }
  }

  /** A probe that ran out of time, as opposed to one that found nothing. */
  private static final class OutOfTime extends Exception {
    private static final long serialVersionUID = 1L;

    OutOfTime() {
      super(null, null, false, false);
    }
  }

  JobSolver(
      Session session,
      SearchBudget.Job budget,
      ScenarioSimulator simulator,
      Supplier<List<JobState>> victimJobs,
      String action,
      ActionObserver observer) {
    this.session = session;
    this.action = action;
    this.observer = observer;
    this.budget = budget;
    this.simulator = simulator;
    this.victimJobs = victimJobs;
  }

  Outcome solve(JobState job) {
    List<TaskState> tasks = new TasksToAllocate(session.hooks()).of(job);
    ImmutableList<ScenarioGenerator> generators = session.hooks().scenarioGenerators();
    if (generators.isEmpty()) {
      return Outcome.of(SearchResult.NO_GENERATOR);
    }
    if (tasks.isEmpty()) {
      return Outcome.of(SearchResult.GENERATORS_EXHAUSTED);
    }
    long activeBefore = job.count(TaskStatus::isActiveUsed);
    for (ScenarioGenerator generator : generators) {
      if (budget.exhausted()) {
        return Outcome.of(SearchResult.DEADLINE_EXHAUSTED);
      }
      SearchBudget.Generator generatorBudget = budget.beginGenerator(generator.generatorName());
      long started = budget.nowNanos();
      Optional<ScenarioSimulator.Solution> solution;
      try {
        solution = new ProbeSearch(job, tasks, generator, generatorBudget).run();
        observer.generatorSearched(
            action,
            generator.generatorName(),
            solution.isPresent() ? "solved" : "exhausted",
            budget.nowNanos() - started);
      } catch (OutOfTime e) {
        observer.generatorSearched(
            action, generator.generatorName(), "deadline", budget.nowNanos() - started);
        if (budget.exhausted()) {
          return Outcome.of(SearchResult.DEADLINE_EXHAUSTED);
        }
        continue;
      }
      if (solution.isPresent()) {
        Statement statement = solution.get().statement();
        if (gangSatisfied(job) && job.count(TaskStatus::isActiveUsed) > activeBefore) {
          return new Outcome(SearchResult.SOLVED, Optional.of(statement));
        }
        statement.close();
      }
    }
    return Outcome.of(SearchResult.GENERATORS_EXHAUSTED);
  }

  private static boolean gangSatisfied(JobState job) {
    for (PodSet p : job.podSets()) {
      if (job.count(p, TaskStatus::isActiveUsed) < p.minMember()) {
        return false;
      }
    }
    return true;
  }

  /** One generator's probe sequence over partial jobs. */
  private final class ProbeSearch {
    private final JobState job;
    private final List<TaskState> tasks;
    private final ScenarioGenerator generator;
    private final SearchBudget.Generator generatorBudget;
    private List<TaskState> recorded = List.of();

    ProbeSearch(
        JobState job,
        List<TaskState> tasks,
        ScenarioGenerator generator,
        SearchBudget.Generator generatorBudget) {
      this.job = job;
      this.tasks = tasks;
      this.generator = generator;
      this.generatorBudget = generatorBudget;
    }

    Optional<ScenarioSimulator.Solution> run() throws OutOfTime {
      int n = tasks.size();
      int lastSuccess = 0;
      int firstFailure = -1;
      for (int k = 1; ; k = Math.min(2 * k, n)) {
        Optional<ScenarioSimulator.Solution> s = probe(k);
        if (s.isEmpty()) {
          firstFailure = k;
          break;
        }
        if (k == n) {
          return s;
        }
        lastSuccess = k;
      }
      while (firstFailure - lastSuccess > 1) {
        int mid = (lastSuccess + firstFailure) >>> 1;
        if (probe(mid).isPresent()) {
          lastSuccess = mid;
        } else {
          firstFailure = mid;
        }
      }
      return probe(n);
    }

    /**
     * Solves the first {@code k} tasks. Below {@code n} a solution is discarded and its victims
     * recorded; at {@code n} it is returned open.
     */
    private Optional<ScenarioSimulator.Solution> probe(int k) throws OutOfTime {
      List<TaskState> pending = tasks.subList(0, k);
      Optional<ScenarioSimulator.Solution> s = solvePartial(pending);
      if (s.isPresent() && k < tasks.size()) {
        recorded = s.get().victims();
        s.get().statement().close();
      }
      return s;
    }

    private Optional<ScenarioSimulator.Solution> solvePartial(List<TaskState> pending)
        throws OutOfTime {
      Set<TaskState> recordedSet = new LinkedHashSet<>(recorded);
      VictimAccumulator accumulator = new VictimAccumulator(session, victimJobs.get(), recordedSet);
      AccumulatedScenarioFilters filters = new AccumulatedScenarioFilters(session, pending);
      ImmutableSet<String> feasible = feasibleNodes(pending);
      Resources request = request(pending);
      List<VictimBatch> potential = new ArrayList<>();
      boolean first = true;
      while (true) {
        if (!first) {
          Optional<VictimBatch> batch = accumulator.next();
          if (batch.isEmpty()) {
            return Optional.empty();
          }
          potential.add(batch.get());
        }
        first = false;
        AccumulatedScenario base =
            new AccumulatedScenario(
                job,
                ImmutableList.copyOf(pending),
                ImmutableList.copyOf(recorded),
                ImmutableList.copyOf(potential),
                feasible);
        if (!filters.pass(base)) {
          observer.scenarioFiltered(action);
          continue;
        }
        String name = generator.generatorName();
        for (List<TaskState> picked : generator.scenarios(base, session)) {
          observer.scenario(action, name, ScenarioState.EMITTED);
          List<TaskState> victims = new ArrayList<>(recorded);
          victims.addAll(picked);
          String fingerprint = ScenarioFingerprints.of(job, pending, recorded, picked);
          if (failed.failedBefore(fingerprint)) {
            observer.scenario(action, name, ScenarioState.SKIPPED);
            continue;
          }
          if (generatorBudget.exhausted() || budget.exhausted()) {
            throw new OutOfTime();
          }
          Optional<ScenarioSimulator.Solution> s =
              simulator.simulate(job, pending, request, victims);
          observer.scenario(action, name, ScenarioState.SIMULATED);
          if (s.isPresent()) {
            return s;
          }
          observer.scenario(action, name, ScenarioState.REJECTED);
          failed.recordFailure(fingerprint);
        }
      }
    }

    /**
     * Nodes the pending tasks may use without evicting anything: for a GPU job the nodes with idle
     * or releasing GPU capacity, otherwise every node; plus the nodes of recorded victims.
     */
    private ImmutableSet<String> feasibleNodes(List<TaskState> pending) {
      boolean gpuJob = pending.stream().anyMatch(t -> t.info().requestsGpu());
      Set<String> out = new TreeSet<>();
      for (NodeState n : session.nodes()) {
        if (!gpuJob
            || n.idleOrReleasing().gpus().isPositive()
            || n.gpuGroups().stream().anyMatch(g -> g.idleOrReleasingPortion().isPositive())) {
          out.add(n.name());
        }
      }
      for (TaskState t : recorded) {
        t.nodeName().ifPresent(out::add);
      }
      return ImmutableSet.copyOf(out);
    }

    private Resources request(List<TaskState> pending) {
      return TaskState.queueAmounts(pending, session.quotaGpus(pending));
    }
  }
}
