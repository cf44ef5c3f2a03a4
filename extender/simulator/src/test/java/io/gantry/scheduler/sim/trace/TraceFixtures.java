package io.gantry.scheduler.sim.trace;

import com.google.common.collect.ImmutableList;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.Random;

/** Small traces generated for tests: the real trace stays out of the repository. */
final class TraceFixtures {
  private TraceFixtures() {}

  static TraceNode node(String name, int gpus, String model) {
    return new TraceNode(name, 32_000, 131_072, gpus, model);
  }

  static TraceTask task(String name, int gpus, int gpuMilli, String... models) {
    return new TraceTask(
        name, 4_000, 8_192, gpus, gpuMilli, ImmutableList.copyOf(models), 0, OptionalLong.empty());
  }

  /** {@code count} nodes of 2, 4 or 8 GPUs of two models, and a mix like the Alibaba trace's. */
  static List<TraceNode> nodes(int count, long seed) {
    Random r = new Random(seed);
    List<TraceNode> out = new ArrayList<>();
    int[] sizes = {2, 4, 8};
    for (int i = 0; i < count; i++) {
      out.add(
          new TraceNode(
              String.format("node-%03d", i),
              16_000 + 16_000L * r.nextInt(4),
              131_072,
              sizes[r.nextInt(sizes.length)],
              r.nextBoolean() ? "T4" : "V100"));
    }
    return out;
  }

  static List<TraceTask> tasks(int count, long seed) {
    Random r = new Random(seed);
    int[] shares = {1000, 1000, 1000, 810, 470, 320, 230, 650};
    List<TraceTask> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      double kind = r.nextDouble();
      int gpus;
      int milli;
      if (kind < 0.1) {
        gpus = 0;
        milli = 0;
      } else if (kind < 0.15) {
        gpus = 1 << (1 + r.nextInt(3));
        milli = 1000;
      } else {
        gpus = 1;
        milli = shares[r.nextInt(shares.length)];
      }
      ImmutableList<String> models =
          r.nextInt(10) == 0 ? ImmutableList.of("V100") : ImmutableList.of();
      out.add(
          new TraceTask(
              String.format("task-%04d", i),
              1_000L * (1 + r.nextInt(12)),
              4_096L * (1 + r.nextInt(8)),
              gpus,
              milli,
              models,
              i * 60L,
              OptionalLong.of(i * 60L + 600 + r.nextInt(7200))));
    }
    return out;
  }
}
