package io.gantry.scheduler.model;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Every queue of a source with its parent, in source order, including those a snapshot leaves out
 * (kai-reference §4.1 drops a queue whose parent is missing, with its subtree, and so a cycle), so
 * that the reason a queue holds no jobs can be told: it does not exist, its parent does not, it is
 * in (or under) a cycle, or it is not a leaf. {@code gantry simulate} reports these as file errors,
 * the scheduler and the extender on the pods of such a queue; both word them here.
 */
public final class QueueHierarchy {
  /** Why a queue can hold no jobs. */
  public sealed interface Problem {
    /** The reason in words, each queue name written by {@code quote}. */
    String describe(Function<String, String> quote);

    /**
     * The reason as a pod is told it, with KAI's quotes and capital: for a missing queue exactly
     * KAI's {@code Queue '<q>' does not exist}.
     */
    default String sentence() {
      String why = describe(name -> "'" + name + "'");
      return Character.toUpperCase(why.charAt(0)) + why.substring(1);
    }
  }

  /** No queue has the name. */
  public record Missing(String queue) implements Problem {
    @Override
    public String describe(Function<String, String> quote) {
      return "queue " + quote.apply(queue) + " does not exist";
    }
  }

  /** {@code queue} names {@code parent}, which does not exist. */
  public record MissingParent(String queue, String parent) implements Problem {
    @Override
    public String describe(Function<String, String> quote) {
      return "parent queue "
          + quote.apply(parent)
          + " of queue "
          + quote.apply(queue)
          + " does not exist";
    }
  }

  /** Following parents from {@code chain}'s first queue comes back to it. */
  public record Cycle(ImmutableList<String> chain) implements Problem {
    @Override
    public String describe(Function<String, String> quote) {
      return "queue " + quote.apply(chain.get(0)) + " is in a cycle: " + String.join(" -> ", chain);
    }
  }

  /** The queue has children ({@code child} is the first); only leaf queues hold jobs. */
  public record NotLeaf(String queue, String child) implements Problem {
    @Override
    public String describe(Function<String, String> quote) {
      return "queue "
          + quote.apply(queue)
          + " is not a leaf queue (it is the parent of "
          + quote.apply(child)
          + "); jobs go to leaf queues";
    }
  }

  private final ImmutableMap<String, Optional<String>> parentByName;

  /**
   * @param parentByName each queue's parent, in source order (the first child is reported)
   */
  public QueueHierarchy(Map<String, Optional<String>> parentByName) {
    this.parentByName = ImmutableMap.copyOf(requireNonNull(parentByName, "parentByName is null"));
  }

  /** The hierarchy of {@code queues}, in their order. */
  public static QueueHierarchy of(List<QueueInfo> queues) {
    ImmutableMap.Builder<String, Optional<String>> parents = ImmutableMap.builder();
    for (QueueInfo q : queues) {
      parents.put(q.name(), q.parent());
    }
    return new QueueHierarchy(parents.buildKeepingLast());
  }

  /**
   * Why a job in {@code queue} can never be scheduled; empty for a leaf queue whose ancestors all
   * exist. A missing parent or a cycle comes before "not a leaf": a queue on a cycle always has a
   * child.
   */
  public Optional<Problem> problem(String queue) {
    if (!parentByName.containsKey(queue)) {
      return Optional.of(new Missing(queue));
    }
    Optional<Problem> above = parentProblem(queue);
    if (above.isPresent()) {
      return above;
    }
    return firstChild(queue).map(child -> new NotLeaf(queue, child));
  }

  /**
   * The missing parent or the cycle met following parents up from {@code queue}, which exists: the
   * queue whose parent is missing (itself or an ancestor), or the cycle from the first queue on it
   * that the walk reaches.
   */
  public Optional<Problem> parentProblem(String queue) {
    List<String> chain = new ArrayList<>(List.of(queue));
    String current = queue;
    Optional<String> parent = parentByName.get(queue);
    while (parent.isPresent()) {
      String p = parent.get();
      if (!parentByName.containsKey(p)) {
        return Optional.of(new MissingParent(current, p));
      }
      int seen = chain.indexOf(p);
      if (seen >= 0) {
        List<String> cycle = new ArrayList<>(chain.subList(seen, chain.size()));
        cycle.add(p);
        return Optional.of(new Cycle(ImmutableList.copyOf(cycle)));
      }
      chain.add(p);
      current = p;
      parent = parentByName.get(p);
    }
    return Optional.empty();
  }

  /** The first queue, in source order, whose parent is {@code queue}. */
  public Optional<String> firstChild(String queue) {
    for (Map.Entry<String, Optional<String>> e : parentByName.entrySet()) {
      if (e.getValue().filter(queue::equals).isPresent()) {
        return Optional.of(e.getKey());
      }
    }
    return Optional.empty();
  }

  public boolean contains(String queue) {
    return parentByName.containsKey(queue);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof QueueHierarchy h && parentByName.equals(h.parentByName);
  }

  @Override
  public int hashCode() {
    return parentByName.hashCode();
  }

  @Override
  public String toString() {
    return "QueueHierarchy" + parentByName;
  }
}
