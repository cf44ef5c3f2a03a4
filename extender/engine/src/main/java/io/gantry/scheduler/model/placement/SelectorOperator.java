package io.gantry.scheduler.model.placement;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.regex.Pattern;

/**
 * The operators of Kubernetes node selector and label selector requirements. Label selectors accept
 * only the first four; {@link LabelSelectorRequirement} enforces that.
 */
public enum SelectorOperator {
  IN("In"),
  NOT_IN("NotIn"),
  EXISTS("Exists"),
  DOES_NOT_EXIST("DoesNotExist"),
  GT("Gt"),
  LT("Lt");

  // Go's strconv.ParseInt(s, 10, 64) takes ASCII digits only; Long.parseLong alone would also take
  // other Unicode digits and so match labels that Kubernetes does not.
  private static final Pattern GO_DECIMAL_INT = Pattern.compile("[+-]?[0-9]+");

  private final String k8sName;

  SelectorOperator(String k8sName) {
    this.k8sName = k8sName;
  }

  /** The Kubernetes spelling, e.g. {@code DoesNotExist}. */
  public String k8sName() {
    return k8sName;
  }

  /**
   * Parses the Kubernetes spelling.
   *
   * @throws IllegalArgumentException naming the allowed values
   */
  public static SelectorOperator parse(String k8sName) {
    requireNonNull(k8sName, "k8sName is null");
    for (SelectorOperator operator : values()) {
      if (operator.k8sName.equals(k8sName)) {
        return operator;
      }
    }
    throw new IllegalArgumentException(
        "selector operator must be one of In, NotIn, Exists, DoesNotExist, Gt, Lt but was: '"
            + k8sName
            + "'");
  }

  /**
   * Checks the value count Kubernetes API validation demands of this operator.
   *
   * @param owner the record being validated, for the message
   */
  void validateValues(String owner, String key, List<String> values) {
    switch (this) {
      case IN, NOT_IN -> {
        if (values.isEmpty()) {
          throw new IllegalArgumentException(
              owner
                  + " values must be non-empty when operator is "
                  + k8sName
                  + " (key "
                  + key
                  + ")");
        }
      }
      case EXISTS, DOES_NOT_EXIST -> {
        if (!values.isEmpty()) {
          throw new IllegalArgumentException(
              owner + " values must be empty when operator is " + k8sName + " (key " + key + ")");
        }
      }
      case GT, LT -> {
        if (values.size() != 1) {
          throw new IllegalArgumentException(
              owner
                  + " values must have exactly one element when operator is "
                  + k8sName
                  + " (key "
                  + key
                  + ") but had "
                  + values.size());
        }
        if (parseInteger(values.get(0)).isEmpty()) {
          throw new IllegalArgumentException(
              owner
                  + " values must be an integer when operator is "
                  + k8sName
                  + " (key "
                  + key
                  + ") but was: '"
                  + values.get(0)
                  + "'");
        }
      }
    }
  }

  /**
   * Mirrors {@code labels.Requirement.Matches} in k8s.io/apimachinery: NotIn and DoesNotExist match
   * a missing key; Gt and Lt never match a missing or non-integer label.
   */
  boolean matches(String key, List<String> values, Map<String, String> labels) {
    String actual = labels.get(key);
    return switch (this) {
      case IN -> actual != null && values.contains(actual);
      case NOT_IN -> actual == null || !values.contains(actual);
      case EXISTS -> actual != null;
      case DOES_NOT_EXIST -> actual == null;
      case GT -> compareInteger(actual, values.get(0)) > 0;
      case LT -> compareInteger(actual, values.get(0)) < 0;
    };
  }

  // Returns 0 (neither Gt nor Lt) when the label is absent or not an integer.
  private static int compareInteger(String actual, String bound) {
    if (actual == null) {
      return 0;
    }
    OptionalLong parsed = parseInteger(actual);
    if (parsed.isEmpty()) {
      return 0;
    }
    return Long.compare(parsed.getAsLong(), parseInteger(bound).orElseThrow());
  }

  private static OptionalLong parseInteger(String text) {
    if (!GO_DECIMAL_INT.matcher(text).matches()) {
      return OptionalLong.empty();
    }
    try {
      return OptionalLong.of(Long.parseLong(text));
    } catch (NumberFormatException overflow) {
      return OptionalLong.empty();
    }
  }
}
