package io.gantry.scheduler.plugins;

/** A plugin configuration the scheduler cannot start with; names the plugin and the field. */
public final class PluginConfigException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String plugin;
  private final String field;
  private final String problem;

  /** {@code field} as in a scheduler config, e.g. {@code plugins.proportion.arguments.kValue}. */
  public PluginConfigException(String plugin, String field, String problem) {
    super(field + ": " + problem);
    this.plugin = plugin;
    this.field = field;
    this.problem = problem;
  }

  public String plugin() {
    return plugin;
  }

  public String field() {
    return field;
  }

  public String problem() {
    return problem;
  }
}
