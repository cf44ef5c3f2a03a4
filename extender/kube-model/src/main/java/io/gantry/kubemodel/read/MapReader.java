package io.gantry.kubemodel.read;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.kubemodel.read.Field.DurationBound;
import io.gantry.kubemodel.read.LocatedNode.Entry;
import io.gantry.kubemodel.read.LocatedNode.MapNode;
import io.gantry.kubemodel.read.LocatedNode.ScalarNode;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Reads the fields of one mapping. A key whose value is {@code null} counts as absent, as in a
 * Kubernetes object.
 */
public final class MapReader {
  private final Field field;
  private final MapNode map;

  private MapReader(Field field, MapNode map) {
    this.field = field;
    this.map = map;
  }

  /** Rejects the first key, in file order, that is not one of {@code allowedKeys}. */
  public static MapReader of(Field field, MapNode map, Set<String> allowedKeys)
      throws ScenarioException {
    for (Entry entry : map.entries()) {
      if (!allowedKeys.contains(entry.key())) {
        throw new ScenarioException(
            field.sourceName(), entry.keyLine(), field.childPath(entry.key()), "unknown field");
      }
    }
    return new MapReader(field, map);
  }

  static MapReader open(Field field, MapNode map) {
    return new MapReader(field, map);
  }

  public int line() {
    return map.line();
  }

  /** An error about {@code key} of this mapping, blamed on {@code line}. */
  public ScenarioException error(String key, int line, String problem) {
    return new ScenarioException(field.sourceName(), line, field.childPath(key), problem);
  }

  public Optional<Field> optional(String key) {
    for (Entry entry : map.entries()) {
      if (entry.key().equals(key) && !isNull(entry.value())) {
        return Optional.of(field.child(key, entry.keyLine(), entry.value()));
      }
    }
    return Optional.empty();
  }

  public Field required(String key) throws ScenarioException {
    Optional<Field> value = optional(key);
    if (value.isEmpty()) {
      throw error(key, map.line(), "is required");
    }
    return value.get();
  }

  /** The present entries in file order. */
  public List<Field> fields() {
    ImmutableList.Builder<Field> fields = ImmutableList.builder();
    for (Entry entry : map.entries()) {
      if (!isNull(entry.value())) {
        fields.add(field.child(entry.key(), entry.keyLine(), entry.value()));
      }
    }
    return fields.build();
  }

  /** Each present key and the line it is on, for stages that report on a field after loading. */
  public ImmutableSortedMap<String, Integer> fieldLines() {
    ImmutableSortedMap.Builder<String, Integer> lines = ImmutableSortedMap.naturalOrder();
    for (Entry entry : map.entries()) {
      if (!isNull(entry.value())) {
        lines.put(entry.key(), entry.keyLine());
      }
    }
    return lines.build();
  }

  public String requiredString(String key) throws ScenarioException {
    return required(key).asNonEmptyString();
  }

  public Optional<String> optString(String key) throws ScenarioException {
    Optional<Field> value = optional(key);
    return value.isPresent() ? Optional.of(value.get().asString()) : Optional.empty();
  }

  public Optional<String> optChoice(String key, List<String> allowed) throws ScenarioException {
    Optional<Field> value = optional(key);
    return value.isPresent() ? Optional.of(value.get().asChoice(allowed)) : Optional.empty();
  }

  public Optional<Boolean> optBoolean(String key) throws ScenarioException {
    Optional<Field> value = optional(key);
    return value.isPresent() ? Optional.of(value.get().asBoolean()) : Optional.empty();
  }

  public boolean booleanOr(String key, boolean otherwise) throws ScenarioException {
    return optBoolean(key).orElse(otherwise);
  }

  public OptionalInt optInt(String key, int min) throws ScenarioException {
    Optional<Field> value = optional(key);
    return value.isPresent() ? OptionalInt.of(value.get().asInt(min)) : OptionalInt.empty();
  }

  public int intOr(String key, int otherwise, int min) throws ScenarioException {
    return optInt(key, min).orElse(otherwise);
  }

  public OptionalLong optLong(String key, long min) throws ScenarioException {
    Optional<Field> value = optional(key);
    return value.isPresent() ? OptionalLong.of(value.get().asLong(min)) : OptionalLong.empty();
  }

  public OptionalDouble optDouble(String key, double min) throws ScenarioException {
    Optional<Field> value = optional(key);
    return value.isPresent()
        ? OptionalDouble.of(value.get().asDouble(min))
        : OptionalDouble.empty();
  }

  public Optional<Duration> optDuration(String key, DurationBound bound) throws ScenarioException {
    Optional<Field> value = optional(key);
    return value.isPresent() ? Optional.of(value.get().asDuration(bound)) : Optional.empty();
  }

  /** The items of a list field; empty when the field is absent. */
  public List<Field> list(String key) throws ScenarioException {
    Optional<Field> value = optional(key);
    return value.isPresent() ? value.get().asList() : ImmutableList.of();
  }

  public List<String> stringList(String key) throws ScenarioException {
    Optional<Field> value = optional(key);
    return value.isPresent() ? value.get().asStringList() : ImmutableList.of();
  }

  public ImmutableSortedMap<String, String> stringMap(String key) throws ScenarioException {
    Optional<Field> value = optional(key);
    return value.isPresent() ? value.get().asStringMap() : ImmutableSortedMap.of();
  }

  private static boolean isNull(LocatedNode node) {
    return node instanceof ScalarNode && ((ScalarNode) node).isNull();
  }
}
