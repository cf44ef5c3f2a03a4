package io.gantry.scheduler.actions;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class EvictionInvariantsReproTest {
  @Test
  void repro() {
    EvictionInvariantsTest t = new EvictionInvariantsTest();
    List<String> failures = new ArrayList<>();
    long[] seeds = new long[3002];
    seeds[0] = 3530353223L;
    seeds[1] = 959895442401917082L;
    for (int i = 2; i < seeds.length; i++) {
      seeds[i] = new java.util.Random(i).nextLong();
    }
    for (long seed : seeds) {
      EvictionInvariantsTest.Run run = EvictionInvariantsTest.run(seed);
      try {
        t.noGangIsLeftRunningBelowItsMinimumByAnEviction(run);
      } catch (AssertionError e) {
        failures.add("gang seed " + seed + ": " + e.getMessage().replace('\n', ' '));
      }
      try {
        t.aQueueWithinItsDeservedQuotaNeverLosesResourcesToReclaim(run);
      } catch (AssertionError e) {
        failures.add("reclaim seed " + seed + ": " + e.getMessage().replace('\n', ' '));
      }
    }
    System.out.println("REPRO failures=" + failures.size());
    failures.stream().limit(10).forEach(f -> System.out.println("REPRO " + f));
  }
}
