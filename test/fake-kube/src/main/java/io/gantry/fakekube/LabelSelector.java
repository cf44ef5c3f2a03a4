package io.gantry.fakekube;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedSet;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code labelSelector} query parameter, parsed as k8s.io/apimachinery/pkg/labels does: {@code
 * key=value}, {@code key==value}, {@code key!=value}, {@code key in (a,b)}, {@code key notin
 * (a,b)}, {@code key} (exists), {@code !key} (does not exist), {@code key>n}, {@code key<n};
 * requirements joined by commas all hold.
 */
public record LabelSelector(List<Requirement> requirements) {
  private static final String KEY = "([A-Za-z0-9]([-A-Za-z0-9_./]*[A-Za-z0-9])?)";
  private static final String VALUE = "([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?";
  private static final Pattern NOT_EXISTS = Pattern.compile("!\\s*" + KEY);
  private static final Pattern SET = Pattern.compile(KEY + "\\s+(in|notin)\\s*\\(([^()]*)\\)");
  private static final Pattern COMPARE = Pattern.compile(KEY + "\\s*(==|=|!=|>|<)\\s*" + VALUE);
  private static final Pattern EXISTS = Pattern.compile(KEY);
  private static final Pattern SET_VALUE = Pattern.compile(VALUE);

  /** The selector that matches everything. */
  public static final LabelSelector EVERYTHING = new LabelSelector(List.of());

  public LabelSelector {
    requirements = ImmutableList.copyOf(requirements);
  }

  /** Operators of label requirements. */
  public enum Operator {
    EQUALS,
    NOT_EQUALS,
    IN,
    NOT_IN,
    EXISTS,
    DOES_NOT_EXIST,
    GREATER_THAN,
    LESS_THAN
  }

  /** One requirement: key, operator and the values it compares with. */
  public record Requirement(String key, Operator operator, ImmutableSortedSet<String> values) {
    public Requirement {
      requireNonNull(key, "key is null");
      requireNonNull(operator, "operator is null");
      requireNonNull(values, "values is null");
    }

    boolean matches(JsonNode labels) {
      JsonNode value = labels == null ? null : labels.get(key);
      boolean present = value != null && !value.isNull();
      String text = present ? value.asText() : "";
      return switch (operator) {
        case EXISTS -> present;
        case DOES_NOT_EXIST -> !present;
        case EQUALS, IN -> present && values.contains(text);
        case NOT_EQUALS, NOT_IN -> !present || !values.contains(text);
        case GREATER_THAN -> present && compare(text) > 0;
        case LESS_THAN -> present && compare(text) < 0;
      };
    }

    private int compare(String text) {
      try {
        return Long.compare(Long.parseLong(text), Long.parseLong(values.first()));
      } catch (NumberFormatException e) {
        return 0;
      }
    }
  }

  /** Parses a selector; an empty or absent one selects everything. Bad syntax is a 400 Status. */
  public static LabelSelector parse(String selector) {
    if (selector == null || selector.isBlank()) {
      return EVERYTHING;
    }
    List<Requirement> requirements = new ArrayList<>();
    for (String part : splitTopLevel(selector)) {
      requirements.add(parseRequirement(part.trim(), selector));
    }
    return new LabelSelector(requirements);
  }

  /** Whether the object's {@code metadata.labels} satisfy every requirement. */
  public boolean matches(JsonNode object) {
    JsonNode labels = object.path("metadata").get("labels");
    return requirements.stream().allMatch(r -> r.matches(labels));
  }

  private static Requirement parseRequirement(String text, String whole) {
    Matcher m = NOT_EXISTS.matcher(text);
    if (m.matches()) {
      return new Requirement(m.group(1), Operator.DOES_NOT_EXIST, ImmutableSortedSet.of());
    }
    m = SET.matcher(text);
    if (m.matches()) {
      ImmutableSortedSet.Builder<String> values = ImmutableSortedSet.naturalOrder();
      for (String v : m.group(4).split(",", -1)) {
        String value = v.trim();
        if (!SET_VALUE.matcher(value).matches()) {
          throw invalid(whole, "invalid label value: \"" + value + "\"");
        }
        values.add(value);
      }
      Operator op = m.group(3).equals("in") ? Operator.IN : Operator.NOT_IN;
      return new Requirement(m.group(1), op, values.build());
    }
    m = COMPARE.matcher(text);
    if (m.matches()) {
      String value = m.group(4) == null ? "" : m.group(4);
      Operator op =
          switch (m.group(3)) {
            case "!=" -> Operator.NOT_EQUALS;
            case ">" -> Operator.GREATER_THAN;
            case "<" -> Operator.LESS_THAN;
            default -> Operator.EQUALS;
          };
      if ((op == Operator.GREATER_THAN || op == Operator.LESS_THAN) && !value.matches("-?\\d+")) {
        throw invalid(whole, "for 'Gt', 'Lt' operators, the value must be an integer");
      }
      return new Requirement(m.group(1), op, ImmutableSortedSet.of(value));
    }
    m = EXISTS.matcher(text);
    if (m.matches()) {
      return new Requirement(m.group(1), Operator.EXISTS, ImmutableSortedSet.of());
    }
    throw invalid(whole, "unable to parse requirement: \"" + text + "\"");
  }

  private static List<String> splitTopLevel(String selector) {
    List<String> parts = new ArrayList<>();
    int depth = 0;
    int start = 0;
    for (int i = 0; i < selector.length(); i++) {
      char c = selector.charAt(i);
      if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth--;
      } else if (c == ',' && depth == 0) {
        parts.add(selector.substring(start, i));
        start = i + 1;
      }
    }
    parts.add(selector.substring(start));
    return parts;
  }

  private static StatusException invalid(String selector, String why) {
    return new StatusException(
        KubeStatus.badRequest("unable to parse labelSelector \"" + selector + "\": " + why));
  }
}
