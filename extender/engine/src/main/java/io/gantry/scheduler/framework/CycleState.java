package io.gantry.scheduler.framework;

import java.util.IdentityHashMap;
import java.util.Optional;

/**
 * Per-cycle values that plugins publish for each other and for the cycle's result, read and written
 * by {@link StateKey}, so no consumer casts. One instance per session; single-threaded, like the
 * session.
 */
public final class CycleState {
  private final IdentityHashMap<StateKey<?>, Object> values = new IdentityHashMap<>();

  public <T> Optional<T> read(StateKey<T> key) {
    return Optional.ofNullable(values.get(key)).map(key::cast);
  }

  /** Sets the value of {@code key}; a second write replaces the first. */
  public <T> void write(StateKey<T> key, T value) {
    values.put(key, key.cast(value));
  }
}
