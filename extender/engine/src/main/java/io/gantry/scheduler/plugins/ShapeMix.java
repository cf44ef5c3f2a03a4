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
import java.util.stream.IntStream;

/**
 * The mix of task shapes a scheduler has seen, learned only from pods created no later than the
 * moment asked about: each pod counts the GPU it asks for to the power {@code askExponent} times
 * {@code 2^(-age / halfLife)}, so the mix follows a workload that changes and forgets what it no
 * longer receives. An exponent between 0 (counting pods, the paper's popularity, which lets the
 * many small tasks outvote the GPU a rare 8-GPU task needs) and 1 (counting their GPU, which lets
 * the few large tasks outvote the many whole GPUs that one-GPU tasks need) strands less GPU on the
 * Alibaba trace than either (docs/placement-quality.md).
 *
 * <p>The weights at a moment depend only on that moment, and cost a sum over at most one segment of
 * {@value #SEGMENT_SIGHTINGS} pods: each segment carries the weights of the pods before it, decayed
 * to its start, and each pod's weight is kept relative to its segment's start, so the moments of
 * several queues' jobs, which interleave, cost no more than moments in order. Single-threaded.
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
      this(shapes, weights.clone(), byGpuAsk(shapes));
    }

    private Weights(ImmutableList<DemandShape> shapes, double[] weights, int[] byGpuAsk) {
      this.shapes = shapes;
      this.weights = weights;
      this.byGpuAsk = byGpuAsk;
    }

    /**
     * New weights for the same shapes, keeping their order by GPU ask. They keep the array, which
     * the caller must not write again: every task makes new weights, and a copy would double them.
     */
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

  /**
   * Sightings per segment at most, and the span of one in half-lives: a pod's weight is kept
   * relative to its segment's first pod, by a factor of at most {@code 2^64}.
   */
  private static final int SEGMENT_SIGHTINGS = 64;

  private static final double SEGMENT_HALF_LIVES = 64;

  /** Moments remembered, so a moment asked again gives the same weights without a sum. */
  private static final int REMEMBERED_MOMENTS = 4096;

  /** Every shape seen, in the order of first sighting: a shape's index in the weights. */
  private final ImmutableList<DemandShape> shapes;

  /** The sightings by creation time, as parallel arrays. */
  private final Instant[] createdAt;

  private final int[] shapeOf;

  /** Distinct shapes among the sightings up to each one. */
  private final int[] shapesSeen;

  /**
   * Each sighting's GPU ask to the {@code askExponent} times {@code 2^(age at its segment's start /
   * halfLife)}.
   */
  private final double[] relativeWeight;

  private final int[] segmentOf;
  private final int[] segmentStart;

  /** Per segment: the weights of the sightings before it, at its first sighting's time. */
  private final double[][] carried;

  private final double halfLifeSeconds;

  /** The last weights per number of shapes, whose order by GPU ask the next ones reuse. */
  private final Weights[] lastBySeenShapes;

  private final Map<Instant, Weights> remembered = new HashMap<>();

  ShapeMix(List<Sighting> sightings, Duration halfLife, double askExponent) {
    if (halfLife.isNegative() || halfLife.isZero()) {
      throw new IllegalArgumentException("halfLife must be positive, got " + halfLife);
    }
    this.halfLifeSeconds = halfLife.toMillis() / 1000.0;
    if (!(askExponent >= 0 && askExponent <= 1)) {
      throw new IllegalArgumentException("askExponent must be from 0 to 1, got " + askExponent);
    }
    List<Sighting> sorted = new ArrayList<>(sightings);
    sorted.sort(Comparator.comparing(Sighting::createdAt).thenComparingLong(Sighting::order));
    int n = sorted.size();
    Map<DemandShape, Integer> index = new HashMap<>();
    ImmutableList.Builder<DemandShape> shapes = ImmutableList.builder();
    this.createdAt = new Instant[n];
    this.shapeOf = new int[n];
    this.shapesSeen = new int[n];
    this.relativeWeight = new double[n];
    this.segmentOf = new int[n];
    List<Integer> starts = new ArrayList<>();
    List<double[]> carried = new ArrayList<>();
    double[] sums = new double[0];
    for (int i = 0; i < n; i++) {
      Sighting s = sorted.get(i);
      Integer known = index.putIfAbsent(s.shape(), index.size());
      if (known == null) {
        shapes.add(s.shape());
      }
      createdAt[i] = s.createdAt();
      shapeOf[i] = known == null ? index.size() - 1 : known;
      shapesSeen[i] = index.size();
      if (starts.isEmpty()
          || i - starts.get(starts.size() - 1) >= SEGMENT_SIGHTINGS
          || halfLives(createdAt[starts.get(starts.size() - 1)], createdAt[i])
              > SEGMENT_HALF_LIVES) {
        if (!starts.isEmpty()) {
          double decay = decay(createdAt[starts.get(starts.size() - 1)], createdAt[i]);
          for (int k = 0; k < sums.length; k++) {
            sums[k] *= decay;
          }
        }
        starts.add(i);
        carried.add(sums.clone());
      }
      int start = starts.get(starts.size() - 1);
      segmentOf[i] = starts.size() - 1;
      relativeWeight[i] =
          Math.pow(s.shape().gpuAsk(), askExponent) / decay(createdAt[start], createdAt[i]);
      if (shapeOf[i] >= sums.length) {
        sums = Arrays.copyOf(sums, shapeOf[i] + 1);
      }
      sums[shapeOf[i]] += relativeWeight[i];
    }
    this.shapes = shapes.build();
    this.segmentStart = starts.stream().mapToInt(Integer::intValue).toArray();
    this.carried = carried.toArray(double[][]::new);
    this.lastBySeenShapes = new Weights[index.size() + 1];
  }

  /**
   * Every shape seen, in the order of first sighting: the weights at any moment hold a first part.
   */
  ImmutableList<DemandShape> shapes() {
    return shapes;
  }

  /** The mix of pods created at or before {@code now}. */
  Weights at(Instant now) {
    Weights known = remembered.get(now);
    if (known != null) {
      return known;
    }
    int count = sightingsUpTo(now);
    int seen = count == 0 ? 0 : shapesSeen[count - 1];
    double[] w = new double[seen];
    if (count > 0) {
      int segment = segmentOf[count - 1];
      int start = segmentStart[segment];
      System.arraycopy(carried[segment], 0, w, 0, carried[segment].length);
      for (int i = start; i < count; i++) {
        w[shapeOf[i]] += relativeWeight[i];
      }
      double decay = decay(createdAt[start], now);
      for (int i = 0; i < seen; i++) {
        w[i] *= decay;
      }
    }
    Weights last = lastBySeenShapes[seen];
    Weights weights = last != null ? last.reweighted(w) : new Weights(shapes.subList(0, seen), w);
    lastBySeenShapes[seen] = weights;
    if (remembered.size() >= REMEMBERED_MOMENTS) {
      remembered.clear();
    }
    remembered.put(now, weights);
    return weights;
  }

  /** How many sightings were created at or before {@code now}. */
  private int sightingsUpTo(Instant now) {
    int low = 0;
    int high = createdAt.length;
    while (low < high) {
      int mid = (low + high) >>> 1;
      if (createdAt[mid].isAfter(now)) {
        high = mid;
      } else {
        low = mid + 1;
      }
    }
    return low;
  }

  private double halfLives(Instant from, Instant to) {
    return Duration.between(from, to).toMillis() / 1000.0 / halfLifeSeconds;
  }

  private double decay(Instant from, Instant to) {
    double seconds = Duration.between(from, to).toMillis() / 1000.0;
    return Math.pow(2, -seconds / halfLifeSeconds);
  }
}
