package io.gantry.scheduler.framework;

/**
 * A scheduler plugin. A plugin implements the hook interfaces it takes part in; {@link PluginHooks}
 * sorts plugins into per-hook lists once, when a session's plugin set is built, and states how each
 * hook's plugins combine.
 *
 * <p>Lifetime: one instance per cycle. The plugin registry builds a fresh set for every session, so
 * a plugin may keep what it computed for the cycle in its fields; it must not keep anything past
 * the cycle, and two cycles never share an instance.
 *
 * <p>What it sees: on {@link SessionOpenHook#onSessionOpen} a read-only {@link SessionView} (the
 * snapshot, placements, the composed orderings, and the cycle's typed {@link CycleState}); in every
 * other hook the task, job or node states it is asked about, whose public methods only read.
 * Placements change only through an action's {@link Statement}.
 *
 * <p>Threading: every hook of one cycle is called on that cycle's thread, one call at a time; a
 * plugin needs no synchronisation and must start no threads of its own.
 */
public interface Plugin {
  /** KAI's plugin name, e.g. {@code proportion}. */
  String name();
}
