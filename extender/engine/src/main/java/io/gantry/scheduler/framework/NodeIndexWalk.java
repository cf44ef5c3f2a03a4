package io.gantry.scheduler.framework;

import io.gantry.gpusharing.GpuAmount;
import io.gantry.gpusharing.GpuSharingRequest;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.function.BiPredicate;
import java.util.function.Predicate;

/**
 * Finds the node the summed score would pick for a task by walking the node index in the order the
 * scorers declare ({@link IndexOrder}), instead of scoring every node: the node tiers in score
 * order (a shared GPU that fits before none; a multi-GPU task's GPUs inside one interconnect domain
 * before spanning domains; CPU-only nodes before GPU nodes), within each the fullest first, then by
 * name; where idle fits come first (their bonus is above the domain and CPU-only tiers), the first
 * node that fits in idle resources across the tiers of equal higher bonus, else the first that fits
 * at all. For a task the index {@link #covers}, finding nothing means no node fits.
 */
final class NodeIndexWalk {
  private final NodeIndex index;
  private final BiPredicate<TaskState, NodeState> fits;

  /** {@code fits}: every check the full scan makes of a node for the task. */
  NodeIndexWalk(NodeIndex index, BiPredicate<TaskState, NodeState> fits) {
    this.index = index;
    this.fits = fits;
  }

  /**
   * The best node that fits, empty when none does; call only when {@link #covers} the task, so the
   * walk reaches every node that could fit.
   */
  Optional<NodeState> find(TaskState task, IndexOrder order) {
    return switch (order.key()) {
      case WHOLE_GPUS -> gpuTask(task, order);
      case CPU -> cpuTask(task, order);
    };
  }

  /** Whether the index holds, in score order, every node that could take the task. */
  static boolean covers(TaskState task, IndexOrder order) {
    Optional<GpuSharingRequest> sharing = task.info().gpuSharing();
    return switch (order.key()) {
      case WHOLE_GPUS ->
          !order.cpuOnlyNodesFirst()
              && (sharing.isPresent()
                  // a node with a shared GPU that holds the portion may fit with fewer free
                  // devices: only the shared-GPU tier's walk reaches it
                  ? !sharing.get().byMemory() && order.sharedGpuFitFirst()
                  : task.info().request().gpus().wholeDevicesRoundedUp() >= 1
                      && !order.sharedGpuFitFirst());
      case CPU ->
          !task.info().requestsGpu()
              && task.info().request().cpuMillis() > 0
              && !order.sharedGpuFitFirst()
              && order.cpuOnlyNodesFirst();
    };
  }

  private Optional<NodeState> gpuTask(TaskState task, IndexOrder order) {
    Optional<GpuSharingRequest> sharing = task.info().gpuSharing();
    if (sharing.isEmpty()) {
      int whole = Math.toIntExact(task.info().request().gpus().wholeDevicesRoundedUp());
      Iterable<NodeState> enough = index.withFreeGpusAtLeast(whole);
      int inOneDomain = Math.toIntExact(task.info().request().gpus().wholeDevices());
      if (!order.oneDomainFitFirst() || inOneDomain < 2) {
        return first(task, List.of(enough), order);
      }
      // the nodes whose free GPUs of one domain hold the task outrank the rest, below idle fits
      Iterable<NodeState> split =
          () -> filter(enough, n -> n.freeGpusInOneDomain() < inOneDomain).iterator();
      return first(task, List.of(index.withFreeGpusInOneDomainAtLeast(inOneDomain), split), order);
    }
    // a fraction is the same portion on every node
    GpuAmount portion = sharing.get().portionOn(0);
    int room = Math.toIntExact(portion.hundredths());
    Iterable<NodeState> wholeDevices = index.withFreeGpusAtLeast(sharing.get().numDevices());
    Optional<NodeState> onShared = first(task, List.of(index.withSharedRoomAtLeast(room)), order);
    if (onShared.isPresent()) {
      return onShared;
    }
    // nodes with a shared GPU that holds the portion were all tried above
    Iterable<NodeState> rest =
        () -> filter(wholeDevices, n -> n.sharedRoomHundredths() < room).iterator();
    return first(task, List.of(rest), order);
  }

  private Optional<NodeState> cpuTask(TaskState task, IndexOrder order) {
    long cpu = task.info().request().cpuMillis();
    return first(
        task,
        List.of(index.withFreeCpuAtLeast(cpu, true), index.withFreeCpuAtLeast(cpu, false)),
        order);
  }

  /**
   * The best fitting node of {@code tiers} (in score order, each fullest first): without the idle
   * bonus, the first that fits; with it, the first that fits in idle resources, else the first that
   * fits at all.
   */
  private Optional<NodeState> first(
      TaskState task, List<Iterable<NodeState>> tiers, IndexOrder order) {
    NodeState firstFit = null;
    for (Iterable<NodeState> tier : tiers) {
      for (NodeState node : tier) {
        if (!fits.test(task, node)) {
          continue;
        }
        if (!order.idleFitFirst() || GpuFit.fitsIdleNow(task, node)) {
          return Optional.of(node);
        }
        if (firstFit == null) {
          firstFit = node;
        }
      }
    }
    return Optional.ofNullable(firstFit);
  }

  private static Iterable<NodeState> filter(Iterable<NodeState> nodes, Predicate<NodeState> keep) {
    return () ->
        new Iterator<>() {
          private final Iterator<NodeState> in = nodes.iterator();
          private NodeState next = advance();

          private NodeState advance() {
            while (in.hasNext()) {
              NodeState n = in.next();
              if (keep.test(n)) {
                return n;
              }
            }
            return null;
          }

          @Override
          public boolean hasNext() {
            return next != null;
          }

          @Override
          public NodeState next() {
            if (next == null) {
              throw new NoSuchElementException();
            }
            NodeState out = next;
            next = advance();
            return out;
          }
        };
  }
}
