package io.gantry.kubemodel.kai;

import static java.util.Objects.requireNonNull;

/**
 * A Queue, PodGroup or pod that breaks one of KAI's object rules. {@link #field()} is the path of
 * the offending value inside the object ({@code subGroups[2].parent}, {@code
 * annotations.gpu-fraction}), so each adapter can point at it: the simulator at a file line, the
 * admission webhook in its response.
 */
public final class KaiObjectException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final String field;
  private final String problem;

  public KaiObjectException(String field, String problem) {
    super(field + ": " + problem);
    this.field = requireNonNull(field, "field is null");
    this.problem = requireNonNull(problem, "problem is null");
  }

  public String field() {
    return field;
  }

  public String problem() {
    return problem;
  }
}
