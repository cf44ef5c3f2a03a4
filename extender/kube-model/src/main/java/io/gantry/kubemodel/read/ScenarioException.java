package io.gantry.kubemodel.read;

import static java.util.Objects.requireNonNull;

/**
 * A scenario file that cannot be loaded. The message reads {@code <file>:<line>: <field>:
 * <problem>} so that editors and terminals can jump to the line; the parts are also available one
 * by one.
 */
public final class ScenarioException extends Exception {
  private static final long serialVersionUID = 1L;

  private final String sourceName;
  private final int line;
  private final String field;
  private final String problem;

  /**
   * @param line 1-based line, or 0 when the failure has no line (the file could not be read)
   * @param field the field path such as {@code jobs[2].tasks[0].replicas}, or "" when the problem
   *     is not about one field (a YAML syntax error)
   */
  public ScenarioException(String sourceName, int line, String field, String problem) {
    super(format(sourceName, line, field, problem));
    this.sourceName = requireNonNull(sourceName, "sourceName is null");
    this.line = line;
    this.field = requireNonNull(field, "field is null");
    this.problem = requireNonNull(problem, "problem is null");
  }

  public ScenarioException(String sourceName, String problem, Throwable cause) {
    this(sourceName, 0, "", problem);
    initCause(cause);
  }

  public String sourceName() {
    return sourceName;
  }

  /** The 1-based line the problem is on; 0 when there is none. */
  public int line() {
    return line;
  }

  /**
   * The field path, such as {@code queues[1].parent}; "" for a problem with the document itself.
   */
  public String field() {
    return field;
  }

  /** What is wrong, without the location. */
  public String problem() {
    return problem;
  }

  private static String format(String sourceName, int line, String field, String problem) {
    StringBuilder message = new StringBuilder(sourceName);
    if (line > 0) {
      message.append(':').append(line);
    }
    message.append(": ");
    if (!field.isEmpty()) {
      message.append(field).append(": ");
    }
    return message.append(problem).toString();
  }
}
