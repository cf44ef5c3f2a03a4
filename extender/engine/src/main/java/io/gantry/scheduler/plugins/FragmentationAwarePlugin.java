package io.gantry.scheduler.plugins;

import com.google.common.collect.ImmutableSortedSet;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.gpusharing.GpuCandidate;
import io.gantry.scheduler.api.config.Placement;
import io.gantry.scheduler.api.config.PlacementStrategy;
import io.gantry.scheduler.framework.AllocationListener;
import io.gantry.scheduler.framework.GpuFit;
import io.gantry.scheduler.framework.GpuScorer;
import io.gantry.scheduler.framework.GroupedScorer;
import io.gantry.scheduler.framework.JobState;
import io.gantry.scheduler.framework.NodeGrouping;
import io.gantry.scheduler.framework.NodeState;
import io.gantry.scheduler.framework.SessionOpenHook;
import io.gantry.scheduler.framework.SessionView;
import io.gantry.scheduler.framework.TaskState;
import io.gantry.scheduler.model.placement.NodeSelectorTerm;
import io.gantry.scheduler.model.placement.PodPlacementRequirements;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Gantry's {@code fragmentation-aware} placement: among the nodes where KAI's rules let the task
 * fit, the one where placing it least hurts the cluster's ability to take the tasks it has been
 * receiving. It learns that mix from the pods it sees (pending and placed, each weighted down by
 * age, {@link ShapeMix}; never from pods created after the task), and costs a node by how much the
 * node's {@link NodeFragmentation} grows with the task on it, trying each device a shared task
 * could use. Each shape of the mix counts divided by the square of the number of nodes that could
 * still take one task of it ({@link ShapeScarcity}, kept up to date as tasks are placed): a node
 * that is among the last to take a shape is kept for it. The same measure picks the device ({@link
 * GpuScorer}). A tie goes to the node left with less free GPU, then to KAI's tie rule (node name).
 *
 * <p>The cost reads only a node's {@link NodeScoreKey}, so the search costs one node per group of
 * nodes in equal state ({@link GroupedScorer}), not every node, with the same decisions.
 */
public final class FragmentationAwarePlugin extends CostPlacementPlugin
    implements SessionOpenHook, GpuScorer, GroupedScorer, AllocationListener {
  public static final String NAME = "fragmentationaware";
  public static final Duration DEFAULT_HALF_LIFE = Duration.ofMinutes(15);

  /** A pod weighs its GPU ask to this power in the mix ({@link ShapeMix}). */
  public static final double DEFAULT_ASK_EXPONENT = 0.35;

  /**
   * Weight of the free GPU left on the node against the growth of fragmentation: small enough that
   * it only breaks ties (fragmentation moves in steps of a hundredth of a device times a shape
   * weight).
   */
  private static final double PACKING_TIE_WEIGHT = 1e-6;

  private static final double UNUSABLE_DEVICE = -1e18;

  private final Duration halfLife;
  private final double askExponent;
  private ShapeMix mix;
  private ShapeScarcity scarcity;
  private SessionView session;

  /**
   * Nodes by everything {@link #cost} reads of them: the mix's label constraints are the pods' of
   * the session, so the labels it names are known when the session opens.
   */
  private NodeGrouping<NodeScoreKey> grouping =
      NodeScoreKey.grouping(NodeScoreKey.Reading.everything());

  /** The mix and fragmentation after placing on one device, for the task of {@link #gpuTask}. */
  private ShapeMix.Weights weights;

  /**
   * What the mix sees of each node, by position, for this session's mix: it reads only what a node
   * is (GPU memory, labels, name), not its state, so it is read once per node, not per task.
   */
  private NodeFragmentation.Fit[] fitByPosition = new NodeFragmentation.Fit[0];

  private TaskState gpuTask;
  private long gpuVersion = -1;
  private final Map<Long, Double> afterByNodeAndRoom = new HashMap<>();

  public FragmentationAwarePlugin(Placement placement, Duration halfLife, double askExponent) {
    super(placement, PlacementStrategy.FRAGMENTATION_AWARE);
    this.halfLife = halfLife;
    this.askExponent = askExponent;
    this.mix = new ShapeMix(List.of(), halfLife, askExponent);
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void onSessionOpen(SessionView view) {
    this.session = view;
    List<ShapeMix.Sighting> seen = new ArrayList<>();
    ImmutableSortedSet.Builder<String> labelKeys = ImmutableSortedSet.naturalOrder();
    boolean byName = false;
    long mostCpu = 0;
    long mostMemory = 0;
    for (JobState job : view.jobs()) {
      for (TaskState t : job.tasks()) {
        mostCpu = Math.max(mostCpu, t.info().request().cpuMillis());
        mostMemory = Math.max(mostMemory, t.info().request().memoryBytes());
        Optional<DemandShape> shape = DemandShape.of(t.info());
        if (shape.isPresent()) {
          seen.add(
              new ShapeMix.Sighting(job.info().createdAt(), t.info().creationOrder(), shape.get()));
          PodPlacementRequirements placement = shape.get().placement();
          labelKeys.addAll(placement.nodeSelector().keySet());
          for (NodeSelectorTerm term : placement.affinity().requiredNodeTerms()) {
            term.matchExpressions().forEach(e -> labelKeys.add(e.key()));
            byName |= !term.matchFields().isEmpty();
          }
        }
      }
    }
    this.mix = new ShapeMix(seen, halfLife, askExponent);
    this.fitByPosition = new NodeFragmentation.Fit[0];
    this.scarcity = new ShapeScarcity(mix.shapes(), view.nodes(), this::fit);
    // a pod's request is compared with idle CPU before and after placing one: twice the most
    // any pod asks for is a ceiling above which every comparison is the same
    this.grouping =
        NodeScoreKey.grouping(
            new NodeScoreKey.Reading(labelKeys.build(), byName, twice(mostCpu), twice(mostMemory)));
  }

  private NodeFragmentation.Fit fit(NodeState node) {
    int position = node.position();
    if (position >= fitByPosition.length) {
      fitByPosition =
          Arrays.copyOf(fitByPosition, Math.max(position + 1, 2 * fitByPosition.length));
    }
    NodeFragmentation.Fit fit = fitByPosition[position];
    if (fit == null) {
      fit = NodeFragmentation.fit(mix.shapes(), node);
      fitByPosition[position] = fit;
    }
    return fit;
  }

  private static long twice(long value) {
    return value > Long.MAX_VALUE / 2 ? Long.MAX_VALUE : 2 * value;
  }

  /** Nodes of equal {@link NodeScoreKey} cost the same for every task. */
  @Override
  public Optional<NodeGrouping<?>> groupingFor(TaskState task) {
    return Optional.of(grouping);
  }

  @Override
  void prepare(TaskState task) {
    weights = weightsFor(task);
  }

  /**
   * The learnt mix, each shape's weight divided by the square of the number of nodes that could
   * take one task of it now (at least one): losing one of three nodes that can still take an 8-GPU
   * task costs far more than losing one of three hundred that can take a tenth of a GPU. The square
   * stranded less than the plain count on the trace (docs/placement-quality.md).
   */
  private ShapeMix.Weights weightsFor(TaskState task) {
    ShapeMix.Weights learnt = mix.at(task.job().info().createdAt());
    double[] w = new double[learnt.shapes().size()];
    for (int i = 0; i < w.length; i++) {
      // the reciprocal squared by Math.pow, the rounding the documented figures were measured with
      double perNode = 1 / Math.max((double) scarcity.hostingNodes(i), 1);
      w[i] = learnt.weight(i) * Math.pow(perNode, 2);
    }
    return learnt.reweighted(w);
  }

  @Override
  public void onAllocate(TaskState task, GpuAmount gpus) {
    if (scarcity != null) {
      task.nodeName().flatMap(session::findNode).ifPresent(scarcity::changed);
    }
  }

  /** The task has already left its node and does not say which: every node is recounted. */
  @Override
  public void onDeallocate(TaskState task, GpuAmount gpus) {
    if (scarcity != null) {
      session.nodes().forEach(scarcity::changed);
    }
  }

  @Override
  double cost(TaskState task, NodeState node) {
    NodeFragmentation.Fit fit = fit(node);
    NodeFragmentation now = NodeFragmentation.of(node);
    NodeFragmentation after = placed(task, node, now, fit);
    if (after == null) {
      return Double.NaN;
    }
    double growth = after.fragmentation(weights, fit) - now.fragmentation(weights, fit);
    double freeLeft =
        NodeIdleRoom.share(
            NodeIdleRoom.freeGpuHundredths(node) - NodeIdleRoom.requestHundredths(task, node),
            NodeIdleRoom.gpuCapacityHundredths(node));
    return growth + PACKING_TIE_WEIGHT * freeLeft;
  }

  /** The node with the task on it, on the devices that leave the least fragmentation. */
  private NodeFragmentation placed(
      TaskState task, NodeState node, NodeFragmentation now, NodeFragmentation.Fit fit) {
    long cpu = task.info().request().cpuMillis();
    long memory = task.info().request().memoryBytes();
    if (!task.info().isShared()) {
      return now.takeWhole(
          Math.toIntExact(task.info().request().gpus().wholeDevices()), cpu, memory);
    }
    int portion = Math.toIntExact(GpuFit.portionOn(task, node).hundredths());
    NodeFragmentation state = now;
    int devices = task.info().gpuSharing().orElseThrow().numDevices();
    for (int d = 0; d < devices && state != null; d++) {
      NodeFragmentation best = null;
      double bestValue = Double.MAX_VALUE;
      for (int room : state.roomsFor(portion)) {
        NodeFragmentation next =
            state.takeShared(room, portion, d == 0 ? cpu : 0, d == 0 ? memory : 0);
        double value = next.fragmentation(weights, fit);
        if (value < bestValue) {
          best = next;
          bestValue = value;
        }
      }
      state = best;
    }
    return state;
  }

  /** Higher for the device that leaves the node less fragmented. */
  @Override
  public double scoreGpu(TaskState task, NodeState node, GpuCandidate candidate) {
    if (!places(task) || !task.info().isShared()) {
      return 0;
    }
    if (task != gpuTask || session.placementVersion() != gpuVersion) {
      gpuTask = task;
      gpuVersion = session.placementVersion();
      weights = weightsFor(task);
      afterByNodeAndRoom.clear();
    }
    int room = NodeIdleRoom.DEVICE - Math.toIntExact(candidate.usedPortion().hundredths());
    long key = (long) node.position() * 1024 + room;
    Double cached = afterByNodeAndRoom.get(key);
    if (cached != null) {
      return cached;
    }
    NodeFragmentation.Fit fit = fit(node);
    int portion = Math.toIntExact(GpuFit.portionOn(task, node).hundredths());
    NodeFragmentation after =
        candidate.idleNow()
            ? NodeFragmentation.of(node)
                .takeShared(
                    room,
                    portion,
                    task.info().request().cpuMillis(),
                    task.info().request().memoryBytes())
            : null;
    double score = after == null ? UNUSABLE_DEVICE : -after.fragmentation(weights, fit);
    afterByNodeAndRoom.put(key, score);
    return score;
  }
}
