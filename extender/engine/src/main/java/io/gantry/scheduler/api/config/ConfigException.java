package io.gantry.scheduler.api.config;

import static java.util.Objects.requireNonNull;

/**
 * A scheduler configuration the scheduler cannot start with. {@link #key()} names the setting as a
 * dotted path in the configuration ({@code actions}, {@code plugins.proportion.arguments.kValue}),
 * so every front door can point at the line or flag it came from.
 */
public final class ConfigException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String key;
  private final String problem;

  public ConfigException(String key, String problem) {
    super(key + ": " + problem);
    this.key = requireNonNull(key, "key is null");
    this.problem = requireNonNull(problem, "problem is null");
  }

  public String key() {
    return key;
  }

  public String problem() {
    return problem;
  }
}
