package io.gantry.scheduler.framework;

/**
 * A way to group nodes whose state is the same for some purpose: nodes with equal keys are
 * interchangeable to it, whichever node they are. The node index keeps one grouping per instance,
 * so a scorer creates its grouping once per session and hands out that one.
 *
 * @param <K> the key: a value with equals and hashCode (a record)
 */
public interface NodeGrouping<K> {
  K keyOf(NodeState node);
}
