package io.gantry.kubemodel.read;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.kubemodel.read.LocatedNode.ListNode;
import io.gantry.kubemodel.read.LocatedNode.MapNode;
import io.gantry.kubemodel.read.LocatedNode.ScalarKind;
import io.gantry.kubemodel.read.LocatedNode.ScalarNode;
import io.gantry.scheduler.api.config.GoDuration;
import io.gantry.scheduler.model.Quantity;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * A value at a path in the document, with the line to blame. The {@code as...} methods convert it
 * or throw a {@link ScenarioException} naming the file, the line and the path.
 */
public final class Field {
  private static final int MAX_QUOTED = 80;

  /** The largest quantity a {@code long} holds: bytes, devices, or millicores of CPU. */
  private static final BigDecimal MAX_QUANTITY = BigDecimal.valueOf(Long.MAX_VALUE);

  /** What a duration may be; negative times are relative to the start of the simulation. */
  public enum DurationBound {
    ANY,
    NON_NEGATIVE,
    POSITIVE
  }

  /** How a quantity converts to a {@code long}. */
  public enum QuantityUnit {
    MILLIS,
    WHOLE
  }

  private final String sourceName;
  private final String path;
  private final String key;
  private final int line;
  private final LocatedNode node;

  private Field(String sourceName, String path, String key, int line, LocatedNode node) {
    this.sourceName = sourceName;
    this.path = path;
    this.key = key;
    this.line = line;
    this.node = node;
  }

  public static Field root(String sourceName, LocatedNode node) {
    return new Field(sourceName, "", "", node.line(), node);
  }

  /** The value under {@code key} of this mapping; its line is the key's line. */
  public Field child(String key, int keyLine, LocatedNode value) {
    return new Field(sourceName, childPath(key), key, keyLine, value);
  }

  public String childPath(String key) {
    return path.isEmpty() ? key : path + "." + key;
  }

  public String sourceName() {
    return sourceName;
  }

  /** Where the value is in the document, such as {@code jobs[2].tasks[0]}; "" for the root. */
  public String path() {
    return path;
  }

  public boolean isMap() {
    return node instanceof MapNode;
  }

  public boolean isList() {
    return node instanceof ListNode;
  }

  public int line() {
    return line;
  }

  public ScenarioException error(String problem) {
    return new ScenarioException(sourceName, line, path, problem);
  }

  public MapReader asMap(Set<String> allowedKeys) throws ScenarioException {
    return MapReader.of(this, mapNode(), allowedKeys);
  }

  /** A mapping whose keys are data (labels, resources), not field names. */
  public MapReader asOpenMap() throws ScenarioException {
    return MapReader.open(this, mapNode());
  }

  public List<Field> asList() throws ScenarioException {
    if (!(node instanceof ListNode)) {
      throw error("expected a list, got " + describe(node));
    }
    ImmutableList.Builder<Field> items = ImmutableList.builder();
    List<LocatedNode> nodes = ((ListNode) node).items();
    for (int i = 0; i < nodes.size(); i++) {
      LocatedNode item = nodes.get(i);
      items.add(new Field(sourceName, path + "[" + i + "]", "", item.line(), item));
    }
    return items.build();
  }

  /**
   * The text of any scalar. Numbers and booleans are accepted as their text because label values,
   * names and the like are strings in Kubernetes even when YAML reads {@code 1} or {@code yes}.
   */
  public String asString() throws ScenarioException {
    if (!(node instanceof ScalarNode) || ((ScalarNode) node).isNull()) {
      throw error("expected a string, got " + describe(node));
    }
    return ((ScalarNode) node).text();
  }

  public String asNonEmptyString() throws ScenarioException {
    String text = asString();
    if (text.isEmpty()) {
      throw error("must not be empty");
    }
    return text;
  }

  /** A string that must be one of {@code allowed}. */
  public String asChoice(List<String> allowed) throws ScenarioException {
    String text = asString();
    if (!allowed.contains(text)) {
      throw error("expected one of " + String.join(", ", allowed) + ", got " + quote(text));
    }
    return text;
  }

  public <E extends Enum<E>> E asEnum(E[] values, Function<E, String> yamlName)
      throws ScenarioException {
    String text = asString();
    ImmutableList.Builder<String> names = ImmutableList.builder();
    for (E value : values) {
      if (yamlName.apply(value).equals(text)) {
        return value;
      }
      names.add(yamlName.apply(value));
    }
    throw error("expected one of " + String.join(", ", names.build()) + ", got " + quote(text));
  }

  public boolean asBoolean() throws ScenarioException {
    if (node instanceof ScalarNode) {
      ScalarKind kind = ((ScalarNode) node).kind();
      if (kind == ScalarKind.TRUE || kind == ScalarKind.FALSE) {
        return kind == ScalarKind.TRUE;
      }
    }
    throw error("expected true or false, got " + describe(node));
  }

  public int asInt(int min) throws ScenarioException {
    return (int) integer(min, Integer.MAX_VALUE);
  }

  public long asLong(long min) throws ScenarioException {
    return integer(min, Long.MAX_VALUE);
  }

  /** An integer in {@code [min, max]}; an error states the bound it breaks. */
  private long integer(long min, long max) throws ScenarioException {
    if (!(node instanceof ScalarNode) || ((ScalarNode) node).kind() != ScalarKind.INTEGER) {
      throw error("expected an integer, got " + describe(node));
    }
    BigDecimal number = ((ScalarNode) node).number().orElseThrow();
    if (number.compareTo(BigDecimal.valueOf(min)) < 0) {
      throw error("must be >= " + min + ", got " + number.toPlainString());
    }
    if (number.compareTo(BigDecimal.valueOf(max)) > 0) {
      throw error("must be <= " + max + ", got " + number.toPlainString());
    }
    return number.longValueExact();
  }

  /** Any finite number, integer or not. */
  public double asDouble() throws ScenarioException {
    if (node instanceof ScalarNode) {
      ScalarNode scalar = (ScalarNode) node;
      if (scalar.kind() == ScalarKind.INTEGER || scalar.kind() == ScalarKind.FLOAT) {
        if (scalar.number().isPresent()) {
          return scalar.number().get().doubleValue();
        }
        throw error("expected a finite number, got " + scalar.text());
      }
    }
    throw error("expected a number, got " + describe(node));
  }

  public double asDouble(double min) throws ScenarioException {
    double value = asDouble();
    if (value < min) {
      throw error("must be >= " + formatNumber(min) + ", got " + formatNumber(value));
    }
    return value;
  }

  Duration asDuration(DurationBound bound) throws ScenarioException {
    if (!(node instanceof ScalarNode)
        || ((ScalarNode) node).kind() == ScalarKind.NULL
        || ((ScalarNode) node).kind() == ScalarKind.TRUE
        || ((ScalarNode) node).kind() == ScalarKind.FALSE) {
      throw error("expected a duration such as 90s, 10m or 1h30m, got " + describe(node));
    }
    String text = ((ScalarNode) node).text();
    Duration duration;
    try {
      duration = GoDuration.parse(text);
    } catch (IllegalArgumentException e) {
      throw error(e.getMessage());
    }
    if (bound == DurationBound.NON_NEGATIVE && duration.isNegative()) {
      throw error("must be >= 0s, got " + text);
    }
    if (bound == DurationBound.POSITIVE && (duration.isNegative() || duration.isZero())) {
      throw error("must be > 0s, got " + text);
    }
    return duration;
  }

  /** A non-negative Kubernetes quantity, as millicores (CPU) or a whole number (anything else). */
  public long asQuantity(QuantityUnit unit) throws ScenarioException {
    BigDecimal value = quantityValue();
    if (value.signum() < 0) {
      throw error("must be >= 0, got " + value.stripTrailingZeros().toPlainString());
    }
    BigDecimal max = unit == QuantityUnit.MILLIS ? MAX_QUANTITY.movePointLeft(3) : MAX_QUANTITY;
    if (value.compareTo(max) > 0) {
      throw error(
          "must be <= "
              + max.toPlainString()
              + ", got "
              + value.stripTrailingZeros().toPlainString());
    }
    try {
      return unit == QuantityUnit.MILLIS ? Quantity.toMillis(value) : Quantity.toWhole(value);
    } catch (IllegalArgumentException e) {
      throw error(e.getMessage());
    }
  }

  /** A scalar as loaded: String, Long, Double or Boolean. */
  public Object asScalarValue() throws ScenarioException {
    if (node instanceof ScalarNode) {
      ScalarNode scalar = (ScalarNode) node;
      switch (scalar.kind()) {
        case STRING:
          return scalar.text();
        case INTEGER:
          return asLong(Long.MIN_VALUE);
        case FLOAT:
          return asDouble();
        case TRUE:
          return true;
        case FALSE:
          return false;
        case NULL:
          break;
      }
    }
    throw error("expected a string, number or boolean, got " + describe(node));
  }

  List<String> asStringList() throws ScenarioException {
    ImmutableList.Builder<String> values = ImmutableList.builder();
    for (Field item : asList()) {
      values.add(item.asString());
    }
    return values.build();
  }

  public ImmutableSortedMap<String, String> asStringMap() throws ScenarioException {
    ImmutableSortedMap.Builder<String, String> values = ImmutableSortedMap.naturalOrder();
    for (Field entry : asOpenMap().fields()) {
      values.put(entry.key(), entry.asString());
    }
    return values.build();
  }

  /** The key this field was found under; "" for a list item. */
  public String key() {
    return key;
  }

  private BigDecimal quantityValue() throws ScenarioException {
    if (node instanceof ScalarNode) {
      ScalarNode scalar = (ScalarNode) node;
      if (scalar.number().isPresent()) {
        return scalar.number().get();
      }
      if (scalar.kind() == ScalarKind.STRING) {
        try {
          return Quantity.parse(scalar.text());
        } catch (IllegalArgumentException e) {
          throw error(e.getMessage());
        }
      }
    }
    throw error("expected a quantity such as 500m, 8 or 64Gi, got " + describe(node));
  }

  private MapNode mapNode() throws ScenarioException {
    if (!(node instanceof MapNode)) {
      throw error("expected a mapping, got " + describe(node));
    }
    return (MapNode) node;
  }

  public static String describe(LocatedNode node) {
    if (node instanceof MapNode) {
      return "a mapping";
    }
    if (node instanceof ListNode) {
      return "a list";
    }
    ScalarNode scalar = (ScalarNode) node;
    switch (scalar.kind()) {
      case STRING:
        return quote(scalar.text());
      case NULL:
        return "null";
      default:
        return scalar.text();
    }
  }

  public static String quote(String text) {
    String shown = text.length() > MAX_QUOTED ? text.substring(0, MAX_QUOTED) + "..." : text;
    return '"' + shown.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + '"';
  }

  static String formatNumber(double value) {
    return value == Math.rint(value) && Math.abs(value) < 1e15
        ? Long.toString((long) value)
        : Double.toString(value);
  }
}
