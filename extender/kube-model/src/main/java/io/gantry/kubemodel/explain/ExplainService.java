package io.gantry.kubemodel.explain;

import static java.util.Objects.requireNonNull;

import io.gantry.scheduler.api.result.explain.JobExplanation;
import io.gantry.scheduler.cycle.Explainer;
import io.gantry.scheduler.model.ClusterSnapshot;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Explanations of one cluster, as every front door serves them: {@code gantry explain} and {@code
 * gantry queues} on a scenario or on the cluster read through a kubeconfig, and the live
 * scheduler's {@code /explain}, {@code /queues} and {@code /get-job-order}. Each answer takes a
 * fresh snapshot from {@code snapshots} and carries an HTTP status: 200, 400 (a name several jobs
 * match) or 404 (no such job).
 */
public final class ExplainService {
  /** How an answer is written. */
  public enum Format {
    TEXT,
    JSON
  }

  /** An HTTP status and the body: the report, or one line saying what is wrong. */
  public record Answer(int status, String body) {
    public Answer {
      requireNonNull(body, "body is null");
    }

    public boolean ok() {
      return status == 200;
    }
  }

  private final Explainer explainer;
  private final Supplier<ClusterSnapshot> snapshots;

  public ExplainService(Explainer explainer, Supplier<ClusterSnapshot> snapshots) {
    this.explainer = requireNonNull(explainer, "explainer is null");
    this.snapshots = requireNonNull(snapshots, "snapshots is null");
  }

  /**
   * Why the job runs or waits. {@code name}: {@code namespace/name} or the name of a job
   * (PodGroup), {@code podgroup/NAME}, or {@code pod/NAME} for the job of a pod.
   */
  public Answer explain(Optional<String> namespace, String name, Format format) {
    ClusterSnapshot snapshot = snapshots.get();
    Optional<String> jobId;
    try {
      jobId = Explainer.resolve(snapshot, namespace, name);
    } catch (IllegalArgumentException e) {
      return new Answer(400, e.getMessage() + "\n");
    }
    if (jobId.isEmpty()) {
      return new Answer(
          404,
          "no job or pod "
              + name
              + namespace.map(n -> " in namespace " + n).orElse("")
              + " among the jobs this scheduler schedules\n");
    }
    JobExplanation e = explainer.explain(snapshot, jobId.get()).orElseThrow();
    return new Answer(200, format == Format.JSON ? ExplainJson.job(e) + "\n" : ExplainText.job(e));
  }

  /** The queue tree with each queue's standing and first waiting jobs. */
  public Answer queues(Format format) {
    var queues = explainer.queues(snapshots.get());
    return new Answer(
        200,
        format == Format.JSON ? ExplainJson.queues(queues) + "\n" : ExplainText.queues(queues));
  }

  /** KAI's {@code /get-job-order} answer: the order the next allocate would try waiting jobs. */
  public Answer jobOrder() {
    return new Answer(200, ExplainJson.jobOrder(explainer.jobOrder(snapshots.get())) + "\n");
  }
}
