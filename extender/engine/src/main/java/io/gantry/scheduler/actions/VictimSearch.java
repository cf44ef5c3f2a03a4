package io.gantry.scheduler.actions;

import io.gantry.scheduler.api.result.Decision;
import io.gantry.scheduler.framework.ActionObserver;
import io.gantry.scheduler.framework.ActionType;
import io.gantry.scheduler.framework.EvictionScenario;
import io.gantry.scheduler.framework.JobState;
import io.gantry.scheduler.framework.Session;
import io.gantry.scheduler.framework.Statement;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * One eviction action's search for one preemptor: tells the validators the job's search starts,
 * runs the {@link JobSolver} within the action's budget, and commits the solution it finds —
 * victims evicted, preemptor and re-placed victims pipelined — with KAI's events.
 */
final class VictimSearch {
  private final Session session;
  private final ActionType action;
  private final SearchBudget budget;
  private final ScenarioSimulator simulator;

  VictimSearch(
      Session session,
      ActionType action,
      ActionContext context,
      ScenarioSimulator.Messages messages,
      Predicate<EvictionScenario> validator) {
    this.session = session;
    this.action = action;
    this.budget =
        SearchBudget.forAction(
            context.ticker(), context.evictions().budgets(), action.actionName());
    this.simulator =
        new ScenarioSimulator(
            session, action, context.evictions().allowConsolidatingReclaim(), messages, validator);
  }

  /** KAI's search result label: the result's name in lower case. */
  private static String label(SearchResult result) {
    return result.name().toLowerCase(Locale.ROOT);
  }

  /** The action's time is spent: the jobs left are not attempted. */
  boolean exhausted() {
    return budget.exhausted();
  }

  SearchResult search(JobState job, Supplier<List<JobState>> victimJobs) {
    ActionObserver observer = ActionObserver.of(session);
    String name = action.actionName();
    if (budget.exhausted()) {
      observer.jobSearched(name, label(SearchResult.NOT_ATTEMPTED), false);
      return SearchResult.NOT_ATTEMPTED;
    }
    observer.jobAttempted(name, job.id());
    session.hooks().onJobSolutionStart(action, job);
    SearchBudget.Job jobBudget = budget.beginJob();
    JobSolver.Outcome outcome =
        new JobSolver(session, jobBudget, simulator, victimJobs, name, observer).solve(job);
    if (outcome.result() == SearchResult.SOLVED) {
      try (Statement statement = outcome.statement().orElseThrow()) {
        List<Decision> decisions = statement.commit();
        CommitEvents.record(session, decisions);
      }
      observer.jobPlaced(name, job.id());
    }
    observer.jobSearched(name, label(outcome.result()), jobBudget.reduced());
    if (outcome.result().stopsAction() && budget.exhausted()) {
      observer.actionBudgetExhausted(name);
    }
    return outcome.result();
  }
}
