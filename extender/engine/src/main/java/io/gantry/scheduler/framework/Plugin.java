package io.gantry.scheduler.framework;

/**
 * A scheduler plugin. A plugin implements the hook interfaces it takes part in; {@link PluginHooks}
 * sorts plugins into per-hook lists once, when a session's plugin set is built.
 */
public interface Plugin {
  /** KAI's plugin name, e.g. {@code proportion}. */
  String name();
}
