package io.gantry.scheduler.framework;

import static com.google.common.base.Preconditions.checkState;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.framework.fit.NoNodeFits;
import io.gantry.scheduler.framework.fit.NodeFitReason;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.BiPredicate;
import java.util.function.BooleanSupplier;

/**
 * The search every front door runs: it walks the node index where the scorers' order is the index's
 * ({@link NodeIndexWalk}), explains a task no node takes by one node per {@link NodeClass} where
 * the predicates read only the class, scores one node per group where the scorers follow a {@link
 * NodeGrouping} ({@link NodeGroupWalk}), reuses why a task of equal shape fit nowhere while no task
 * has moved, skips reclaimers out of reach and reuses derived values.
 */
public final class IndexedNodeSearch implements NodeSearch {
  @Override
  public NodeFinder finder(Session session, NodeChecks checks) {
    return new Finder(session, checks);
  }

  @Override
  public boolean skipsReclaimer(BooleanSupplier outOfReach) {
    return outOfReach.getAsBoolean();
  }

  @Override
  public <K, A, V> V reuse(
      Map<K, V> memo,
      K key,
      A argument,
      BiPredicate<? super V, ? super A> current,
      BiFunction<? super K, ? super A, ? extends V> compute) {
    V cached = memo.get(key);
    if (cached != null && current.test(cached, argument)) {
      return cached;
    }
    V fresh = compute.apply(key, argument);
    memo.put(key, fresh);
    return fresh;
  }

  private static final class Finder implements NodeFinder {
    private final Session session;
    private final PluginHooks hooks;
    private final NodeChecks checks;
    private final NodeIndexWalk walk;
    private final BestFitScan scan;
    private final NodeGroupWalk groupWalk;
    private final NodeSubset everyNode;

    /**
     * Why tasks of a shape fit nowhere, valid while the session's placement version is {@link
     * #failuresVersion}: nothing a node check reads has changed, so an equal task fails the same
     * way. Looked up, never iterated.
     */
    private final Map<TaskShape, NoNodeFits> failures = new HashMap<>();

    private long failuresVersion = -1;

    Finder(Session session, NodeChecks checks) {
      this.session = session;
      this.hooks = session.hooks();
      this.checks = checks;
      this.walk =
          new NodeIndexWalk(
              session.nodeIndex(), (task, node) -> checks.unfit(task, node).isEmpty());
      this.scan = new BestFitScan(hooks, checks);
      this.groupWalk = new NodeGroupWalk(hooks, checks);
      this.everyNode = NodeSubset.everyNode(session.nodes());
    }

    @Override
    public NodeFinding find(TaskState task) {
      Optional<NoNodeFits> known = knownFailure(task);
      if (known.isPresent()) {
        return NodeFinding.none(known.get());
      }
      Optional<IndexOrder> order =
          hooks.indexOrder(task).filter(o -> NodeIndexWalk.covers(task, o));
      NodeState best = order.flatMap(o -> walk.find(task, o)).orElse(null);
      if (best != null) {
        return NodeFinding.found(best);
      }
      List<NodeState> nodes = session.nodes();
      RejectionTally rejections = new RejectionTally();
      if (order.isPresent() && hooks.filterReadsOnlyNodeClass(task)) {
        // the index reached every node that could fit and none did: one node per class says why
        for (NodeIndex.ClassMembers c : session.nodeIndex().nodeClasses()) {
          ImmutableList<NodeFitReason> reasons = checks.unfit(task, c.first());
          checkState(!reasons.isEmpty(), "%s fits but the index passed it", c.first().name());
          rejections.add(c.first(), reasons, c.size());
        }
      } else {
        Optional<NodeGrouping<?>> grouping =
            order.isPresent() ? Optional.empty() : hooks.nodeGrouping(task);
        best =
            grouping.isPresent()
                ? groupWalk.bestFit(task, session.nodeIndex().groups(grouping.get()), rejections)
                : scan.bestFit(task, everyNode, rejections);
      }
      if (best != null) {
        return NodeFinding.found(best);
      }
      NoNodeFits failure = rejections.build(nodes.size());
      rememberFailure(task, failure);
      return NodeFinding.none(failure);
    }

    /** How an equal task failed at this placement version, if one did. */
    private Optional<NoNodeFits> knownFailure(TaskState task) {
      if (failuresVersion != session.placementVersion()) {
        return Optional.empty();
      }
      return Optional.ofNullable(failures.get(TaskShape.of(task)));
    }

    private void rememberFailure(TaskState task, NoNodeFits failure) {
      if (failuresVersion != session.placementVersion()) {
        failures.clear();
        failuresVersion = session.placementVersion();
      }
      failures.put(TaskShape.of(task), failure);
    }
  }
}
