package io.gantry.scheduler.plugins;

import com.google.common.collect.ImmutableList;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.IntStream;

/**
 * The mix of task shapes a scheduler has seen, learned only from pods created no later than the
 * moment asked about: each pod counts the square root of the GPU it asks for times {@code 2^(-age /
 * halfLife)}, so the mix follows a workload that changes and forgets what it no longer receives.
 * The square root sits between counting pods (the paper's popularity, which lets the many small
 * tasks outvote the GPU a rare 8-GPU task needs) and counting their GPU (which lets the few large
 * tasks outvote the many whole GPUs that one-GPU tasks need): on the Alibaba trace it strands the
 * least GPU of the three (docs/placement-quality.md). Moving forward in time is incremental (decay
 * the weights, add the pods created since); moving back restarts from the latest {@link Checkpoint}
 * at or before the moment asked about (from nothing when there is none), so a scheduler that places
 * pods of several queues, whose creation times interleave, does not re-add every pod for each of
 * them. The weights depend only on the sequence of moments asked about. Single-threaded.
 */
final class ShapeMix {
  /** A pod the scheduler saw, by the time it was created. */
  record Sighting(Instant createdAt, long order, DemandShape shape) {}

  /** The mix at one moment: shapes and their weights, in the order they were first seen. */
  static final class Weights {
    private final ImmutableList<DemandShape> shapes;
    private final double[] weights;
    private final int[] byGpuAsk;

    Weights(ImmutableList<DemandShape> shapes, double[] weights) {
      this(shapes, weights, byGpuAsk(shapes));
    }

    private Weights(ImmutableList<DemandShape> shapes, double[] weights, int[] byGpuAsk) {
      this.shapes = shapes;
      this.weights = weights.clone();
      this.byGpuAsk = byGpuAsk;
    }

    /** New weights for the same shapes, keeping their order by GPU ask. */
    Weights reweighted(double[] weights) {
      return new Weights(shapes, weights, byGpuAsk);
    }

    private static int[] byGpuAsk(ImmutableList<DemandShape> shapes) {
      return IntStream.range(0, shapes.size())
          .boxed()
          .sorted(
              Comparator.<Integer>comparingInt(i -> shapes.get(i).devices())
                  .thenComparing(i -> shapes.get(i).sharing().isPresent())
                  .thenComparingLong(
                      i ->
                          shapes
                              .get(i)
                              .sharing()
                              .map(r -> Double.doubleToLongBits(r.fraction().orElse(-1)))
                              .orElse(0L))
                  .thenComparingInt(i -> i))
          .mapToInt(Integer::intValue)
          .toArray();
    }

    /**
     * Shape indexes with equal GPU asks next to each other (by devices, then shared fraction), so a
     * pass over them reuses one device count per ask.
     */
    int[] byGpuAsk() {
      return byGpuAsk;
    }

    ImmutableList<DemandShape> shapes() {
      return shapes;
    }

    double weight(int i) {
      return weights[i];
    }
  }

  private final ImmutableList<Sighting> sightings;
  private final double halfLifeSeconds;

  /** Weight per shape at {@link #at}; insertion order is first sighting, so iteration is fixed. */
  private final Map<DemandShape, Double> weights = new LinkedHashMap<>();

  private int next;
  private Instant at = Instant.MIN;
  private Weights cached;

  /** The mix at a moment asked about, with how many sightings it holds. */
  private record Checkpoint(int next, Weights weights) {}

  /**
   * Sightings a checkpoint holds beyond the one before it: moving back then adds at most about this
   * many pods again.
   */
  private static final int CHECKPOINT_EVERY_SIGHTINGS = 64;

  private final TreeMap<Instant, Checkpoint> checkpoints = new TreeMap<>();

  ShapeMix(List<Sighting> sightings, Duration halfLife) {
    if (halfLife.isNegative() || halfLife.isZero()) {
      throw new IllegalArgumentException("halfLife must be positive, got " + halfLife);
    }
    List<Sighting> sorted = new ArrayList<>(sightings);
    sorted.sort(Comparator.comparing(Sighting::createdAt).thenComparingLong(Sighting::order));
    this.sightings = ImmutableList.copyOf(sorted);
    this.halfLifeSeconds = halfLife.toMillis() / 1000.0;
  }

  /** The mix of pods created at or before {@code now}. */
  Weights at(Instant now) {
    if (now.isBefore(at)) {
      restart(now);
    }
    if (cached != null && now.equals(at)) {
      return cached;
    }
    if (!at.equals(Instant.MIN)) {
      double decay = decay(at, now);
      weights.replaceAll((shape, w) -> w * decay);
    }
    while (next < sightings.size() && !sightings.get(next).createdAt().isAfter(now)) {
      Sighting s = sightings.get(next++);
      weights.merge(
          s.shape(), Math.sqrt(s.shape().gpuAsk()) * decay(s.createdAt(), now), Double::sum);
    }
    at = now;
    double[] w = new double[weights.size()];
    int i = 0;
    for (double v : weights.values()) {
      w[i++] = v;
    }
    // shapes are only ever appended in first-sighting order, so as many shapes are the same ones
    cached =
        cached != null && cached.shapes.size() == weights.size()
            ? cached.reweighted(w)
            : new Weights(ImmutableList.copyOf(weights.keySet()), w);
    Map.Entry<Instant, Checkpoint> before = checkpoints.floorEntry(now);
    if (before == null || next - before.getValue().next() >= CHECKPOINT_EVERY_SIGHTINGS) {
      checkpoints.put(now, new Checkpoint(next, cached));
    }
    return cached;
  }

  /** Back to the latest checkpoint at or before {@code now}, or to nothing seen. */
  private void restart(Instant now) {
    weights.clear();
    Map.Entry<Instant, Checkpoint> from = checkpoints.floorEntry(now);
    if (from == null) {
      next = 0;
      at = Instant.MIN;
      cached = null;
      return;
    }
    Weights w = from.getValue().weights();
    cached = w;
    for (int i = 0; i < w.shapes.size(); i++) {
      weights.put(w.shapes.get(i), w.weights[i]);
    }
    next = from.getValue().next();
    at = from.getKey();
  }

  private double decay(Instant from, Instant to) {
    double seconds = Duration.between(from, to).toMillis() / 1000.0;
    return Math.pow(2, -seconds / halfLifeSeconds);
  }
}
