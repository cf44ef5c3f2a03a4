package io.gantry.kubemodel.read;

import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import java.util.regex.Pattern;

/**
 * A Jackson {@link StreamConstraintsException} in words: its message without the getter that set
 * the limit (", from `StreamReadConstraints.getMaxNestingDepth()`"), which names a Jackson class
 * and means nothing to the person who sent the input.
 */
public final class JacksonLimits {
  private static final Pattern SOURCE = Pattern.compile(", from `[^`]*`");

  private JacksonLimits() {}

  public static String describe(StreamConstraintsException e) {
    return SOURCE.matcher(e.getOriginalMessage()).replaceAll("");
  }

  /** Whether Jackson stopped at its nesting-depth limit. */
  public static boolean isNestingDepth(StreamConstraintsException e) {
    return e.getOriginalMessage().contains("nesting depth");
  }

  /** Whether Jackson stopped at its string-length limit (a value or a key). */
  public static boolean isStringLength(StreamConstraintsException e) {
    String message = e.getOriginalMessage();
    return message.startsWith("String value length") || message.startsWith("Name length");
  }
}
