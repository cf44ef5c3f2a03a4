package io.gantry.scheduler.model.dra;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableSortedMap;
import java.math.BigDecimal;

/**
 * One of a ResourceSlice's {@code sharedCounters}: named amounts (quantities as numbers, {@code
 * 40Gi} as bytes) that the pool's devices consume, such as the memory of one GPU that its MIG
 * partitions share.
 */
public record CounterSet(String name, ImmutableSortedMap<String, BigDecimal> counters) {
  public CounterSet {
    requireNonNull(name, "name is null");
    requireNonNull(counters, "counters is null");
  }
}
