package io.gantry.kubemodel.explain;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableMap;
import io.gantry.scheduler.api.result.explain.JobExplanation;
import io.gantry.scheduler.cycle.Explainer;
import io.gantry.scheduler.model.ClusterSnapshot;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Explanations of one cluster, as every front door serves them: {@code gantry explain} and {@code
 * gantry queues} on a scenario or on the cluster read through a kubeconfig, and the live
 * scheduler's {@code /explain}, {@code /queues} and {@code /get-job-order}. Each answer takes a
 * fresh snapshot and carries an HTTP status: 200, 400 (a name several jobs match) or 404 (no such
 * job). A pod the live snapshot leaves out (an invalid pod, an unknown SubGroup, …) is answered
 * with {@value #LEFT_OUT_STATUS} and the reason its condition carries.
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

  /** What an answer for a pod the snapshot left out says its status is. */
  public static final String LEFT_OUT_STATUS = "not scheduled: left out of the scheduling snapshot";

  /**
   * One read of the cluster: its snapshot and the pods of this scheduler the snapshot leaves out
   * ({@code namespace/name} to the reason their condition carries).
   */
  public record Reading(ClusterSnapshot snapshot, ImmutableMap<String, String> leftOutPods) {
    public Reading {
      requireNonNull(snapshot, "snapshot is null");
      requireNonNull(leftOutPods, "leftOutPods is null");
    }
  }

  private final Explainer explainer;
  private final Supplier<Reading> readings;

  /** Explanations of a cluster whose every pod enters the snapshot (a scenario). */
  public ExplainService(Explainer explainer, Supplier<ClusterSnapshot> snapshots) {
    this(withNoPodLeftOut(snapshots), requireNonNull(explainer, "explainer is null"));
  }

  private static Supplier<Reading> withNoPodLeftOut(Supplier<ClusterSnapshot> snapshots) {
    requireNonNull(snapshots, "snapshots is null");
    return () -> new Reading(snapshots.get(), ImmutableMap.of());
  }

  /** The parameters' order differs from the public constructor's only for erasure's sake. */
  private ExplainService(Supplier<Reading> readings, Explainer explainer) {
    this.explainer = explainer;
    this.readings = readings;
  }

  /** Explanations of a live cluster, whose readings may leave pods out. */
  public static ExplainService live(Explainer explainer, Supplier<Reading> readings) {
    return new ExplainService(
        requireNonNull(readings, "readings is null"),
        requireNonNull(explainer, "explainer is null"));
  }

  /**
   * Why the job runs or waits. {@code name}: {@code namespace/name} or the name of a job
   * (PodGroup), {@code podgroup/NAME}, or {@code pod/NAME} for the job of a pod.
   */
  public Answer explain(Optional<String> namespace, String name, Format format) {
    Reading reading = readings.get();
    ClusterSnapshot snapshot = reading.snapshot();
    Optional<String> jobId;
    try {
      jobId = Explainer.resolve(snapshot, namespace, name);
    } catch (IllegalArgumentException e) {
      return new Answer(400, e.getMessage() + "\n");
    }
    if (jobId.isEmpty()) {
      return leftOut(reading.leftOutPods(), namespace, name, format)
          .orElseGet(
              () ->
                  new Answer(
                      404,
                      "no job or pod "
                          + name
                          + namespace.map(n -> " in namespace " + n).orElse("")
                          + " among the jobs this scheduler schedules\n"));
    }
    JobExplanation e = explainer.explain(snapshot, jobId.get()).orElseThrow();
    return new Answer(200, format == Format.JSON ? ExplainJson.job(e) + "\n" : ExplainText.job(e));
  }

  /**
   * The answer for a pod the snapshot left out, named {@code pod/NAME}, {@code namespace/NAME} or
   * {@code NAME} (no job having that name): its status and the reason its condition carries. 400
   * when the name matches left-out pods in several namespaces.
   */
  private static Optional<Answer> leftOut(
      ImmutableMap<String, String> leftOutPods,
      Optional<String> namespace,
      String name,
      Format format) {
    String pod = name.startsWith("pod/") ? name.substring(4) : name;
    List<String> found =
        leftOutPods.keySet().stream()
            .filter(
                key -> {
                  String ns = key.substring(0, key.indexOf('/'));
                  String podName = key.substring(key.indexOf('/') + 1);
                  return namespace.map(ns::equals).orElse(true)
                      && (podName.equals(pod) || key.equals(pod));
                })
            .sorted()
            .toList();
    if (found.isEmpty()) {
      return Optional.empty();
    }
    if (found.size() > 1) {
      return Optional.of(
          new Answer(
              400, name + " matches " + String.join(", ", found) + "; name the namespace\n"));
    }
    String key = found.get(0);
    String reason = leftOutPods.get(key);
    return Optional.of(
        new Answer(
            200,
            format == Format.JSON
                ? ExplainJson.leftOutPod(key, LEFT_OUT_STATUS, reason) + "\n"
                : ExplainText.leftOutPod(key, LEFT_OUT_STATUS, reason)));
  }

  /** The queue tree with each queue's standing and first waiting jobs. */
  public Answer queues(Format format) {
    var queues = explainer.queues(readings.get().snapshot());
    return new Answer(
        200,
        format == Format.JSON ? ExplainJson.queues(queues) + "\n" : ExplainText.queues(queues));
  }

  /** KAI's {@code /get-job-order} answer: the order the next allocate would try waiting jobs. */
  public Answer jobOrder() {
    return new Answer(
        200, ExplainJson.jobOrder(explainer.jobOrder(readings.get().snapshot())) + "\n");
  }
}
