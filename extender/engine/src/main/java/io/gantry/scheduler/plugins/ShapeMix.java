package io.gantry.scheduler.plugins;

import com.google.common.collect.ImmutableList;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.IntStream;

/**
 * The mix of task shapes a scheduler has seen, learned only from pods created no later than the
 * moment asked about: each pod counts the GPU it asks for times {@code 2^(-age / halfLife)} (what a
 * shape that cannot land costs is its GPU, so a rare 8-GPU task weighs as 8 one-GPU tasks), so the
 * mix follows a workload that changes and forgets what it no longer receives. Moving forward in
 * time is incremental (decay the weights, add the pods created since); moving back restarts from
 * the latest {@link Checkpoint} at or before the moment asked about (from nothing when there is
 * none), so a scheduler that places pods of several queues, whose creation times interleave, does
 * not re-add every pod for each of them. The weights depend only on the sequence of moments asked
 * about. Single-threaded.
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

  /** Every shape seen, in the order of first sighting: a shape's index in the weights. */
  private final ImmutableList<DemandShape> shapes;

  /**
   * The sightings by creation time, as parallel arrays: creation time, shape index, GPU asked. An
   * addition is then one array update, not a hash of the shape's placement requirements.
   */
  private final Instant[] createdAt;

  private final int[] shapeOf;
  private final double[] gpuAsk;

  private final double halfLifeSeconds;

  /** Weight per shape index at {@link #at}, for the first {@link #seenShapes} shapes. */
  private final double[] weights;

  private int seenShapes;
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
    Map<DemandShape, Integer> index = new HashMap<>();
    ImmutableList.Builder<DemandShape> shapes = ImmutableList.builder();
    this.createdAt = new Instant[sorted.size()];
    this.shapeOf = new int[sorted.size()];
    this.gpuAsk = new double[sorted.size()];
    for (int i = 0; i < sorted.size(); i++) {
      Sighting s = sorted.get(i);
      Integer known = index.putIfAbsent(s.shape(), index.size());
      if (known == null) {
        shapes.add(s.shape());
      }
      createdAt[i] = s.createdAt();
      shapeOf[i] = known == null ? index.size() - 1 : known;
      gpuAsk[i] = s.shape().gpuAsk();
    }
    this.shapes = shapes.build();
    this.weights = new double[index.size()];
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
      for (int i = 0; i < seenShapes; i++) {
        weights[i] *= decay;
      }
    }
    while (next < createdAt.length && !createdAt[next].isAfter(now)) {
      // shape indexes follow first sighting, so a shape not seen yet is the next index
      int shape = shapeOf[next];
      double added = gpuAsk[next] * decay(createdAt[next], now);
      if (shape < seenShapes) {
        weights[shape] += added;
      } else {
        weights[shape] = added;
        seenShapes = shape + 1;
      }
      next++;
    }
    at = now;
    double[] w = Arrays.copyOf(weights, seenShapes);
    cached =
        cached != null && cached.shapes.size() == seenShapes
            ? cached.reweighted(w)
            : new Weights(shapes.subList(0, seenShapes), w);
    Map.Entry<Instant, Checkpoint> before = checkpoints.floorEntry(now);
    if (before == null || next - before.getValue().next() >= CHECKPOINT_EVERY_SIGHTINGS) {
      checkpoints.put(now, new Checkpoint(next, cached));
    }
    return cached;
  }

  /** Back to the latest checkpoint at or before {@code now}, or to nothing seen. */
  private void restart(Instant now) {
    Map.Entry<Instant, Checkpoint> from = checkpoints.floorEntry(now);
    if (from == null) {
      seenShapes = 0;
      next = 0;
      at = Instant.MIN;
      cached = null;
      return;
    }
    Weights w = from.getValue().weights();
    cached = w;
    seenShapes = w.shapes.size();
    System.arraycopy(w.weights, 0, weights, 0, seenShapes);
    next = from.getValue().next();
    at = from.getKey();
  }

  private double decay(Instant from, Instant to) {
    double seconds = Duration.between(from, to).toMillis() / 1000.0;
    return Math.pow(2, -seconds / halfLifeSeconds);
  }
}
