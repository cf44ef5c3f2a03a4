package io.gantry.scheduler.plugins;

/** A plugin configuration the scheduler cannot start with; the message names the plugin and field. */
public final class PluginConfigException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String plugin;

  public PluginConfigException(String plugin, String message) {
    super(message);
    this.plugin = plugin;
  }

  public String plugin() {
    return plugin;
  }
}
