package io.gantry.scheduler.framework;

import static java.util.Objects.requireNonNull;

/**
 * A typed key of {@link CycleState}. Keys compare by identity: declare each once, as a constant
 * next to the value type it carries.
 */
public final class StateKey<T> {
  private final String name;
  private final Class<T> type;

  public StateKey(String name, Class<T> type) {
    this.name = requireNonNull(name, "name is null");
    this.type = requireNonNull(type, "type is null");
  }

  T cast(Object value) {
    return type.cast(value);
  }

  @Override
  public String toString() {
    return name;
  }
}
