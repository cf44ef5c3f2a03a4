package io.gantry.scheduler.plugins;

import com.google.common.collect.ImmutableList;
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
import java.util.List;
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

  /** The weights of the task being costed ({@link #prepare}). */
  private ShapeMix.Weights weights;

  /** What this session's mix sees of each node. */
  private NodeFragmentations states =
      new NodeFragmentations(new NodeFragmentation.Shapes(ImmutableList.of()));

  /**
   * {@link #scoreGpu}'s score per device room, for {@link #gpuTask} on {@link #gpuNode} at {@link
   * #gpuVersion}, valid where {@link #roomScoredIn} holds {@link #gpuRound}: a node's candidates
   * are sorted by score, which asks each several times, and many share a room.
   */
  private final double[] roomScore = new double[NodeIdleRoom.DEVICE + 1];

  private final long[] roomScoredIn = new long[NodeIdleRoom.DEVICE + 1];
  private long gpuRound;
  private TaskState gpuTask;
  private NodeState gpuNode;
  private long gpuVersion = -1;

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
    this.states = new NodeFragmentations(new NodeFragmentation.Shapes(mix.shapes()));
    this.scarcity = new ShapeScarcity(mix.shapes().size(), view.nodes(), states::of);
    this.gpuTask = null;
    // a pod's request is compared with idle CPU before and after placing one: twice the most
    // any pod asks for is a ceiling above which every comparison is the same
    this.grouping =
        NodeScoreKey.grouping(
            new NodeScoreKey.Reading(labelKeys.build(), byName, twice(mostCpu), twice(mostMemory)));
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

  /** The learnt mix at the task's job's creation, weighted by scarcity ({@link ShapeScarcity}). */
  private ShapeMix.Weights weightsFor(TaskState task) {
    return scarcity.weigh(mix.at(task.job().info().createdAt()));
  }

  @Override
  public void onAllocate(TaskState task, GpuAmount gpus) {
    // no lambdas: once per placement
    Optional<String> nodeName = task.nodeName();
    if (scarcity != null && nodeName.isPresent()) {
      Optional<NodeState> node = session.findNode(nodeName.get());
      if (node.isPresent()) {
        scarcity.changed(node.get());
      }
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
    NodeFragmentation now = states.of(node);
    double after = fragmentationWith(task, node, now);
    if (Double.isNaN(after)) {
      return Double.NaN;
    }
    double growth = after - now.fragmentation(weights);
    double freeLeft =
        NodeIdleRoom.share(
            NodeIdleRoom.freeGpuHundredths(node) - NodeIdleRoom.requestHundredths(task, node),
            NodeIdleRoom.gpuCapacityHundredths(node));
    return growth + PACKING_TIE_WEIGHT * freeLeft;
  }

  /**
   * The fragmentation with the task on the node, on the devices that leave the least; NaN if none.
   */
  private double fragmentationWith(TaskState task, NodeState node, NodeFragmentation now) {
    long cpu = task.info().request().cpuMillis();
    long memory = task.info().request().memoryBytes();
    if (!task.info().isShared()) {
      return now.fragmentationWithWhole(
          Math.toIntExact(task.info().request().gpus().wholeDevices()), cpu, memory, weights);
    }
    return now.fragmentationWithShared(
        Math.toIntExact(GpuFit.portionOn(task, node).hundredths()),
        task.info().gpuSharing().orElseThrow().numDevices(),
        cpu,
        memory,
        weights);
  }

  /** Higher for the device that leaves the node less fragmented. */
  @Override
  public double scoreGpu(TaskState task, NodeState node, GpuCandidate candidate) {
    if (!places(task) || !task.info().isShared()) {
      return 0;
    }
    if (task != gpuTask || node != gpuNode || session.placementVersion() != gpuVersion) {
      gpuTask = task;
      gpuNode = node;
      gpuVersion = session.placementVersion();
      gpuRound++;
      weights = weightsFor(task);
    }
    int room = NodeIdleRoom.DEVICE - Math.toIntExact(candidate.usedPortion().hundredths());
    boolean memo = room >= 0 && room <= NodeIdleRoom.DEVICE;
    if (memo && roomScoredIn[room] == gpuRound) {
      return roomScore[room];
    }
    double after =
        candidate.idleNow()
            ? states
                .of(node)
                .fragmentationWithSharedOn(
                    room,
                    Math.toIntExact(GpuFit.portionOn(task, node).hundredths()),
                    task.info().request().cpuMillis(),
                    task.info().request().memoryBytes(),
                    weights)
            : Double.NaN;
    double score = Double.isNaN(after) ? UNUSABLE_DEVICE : -after;
    if (memo) {
      roomScore[room] = score;
      roomScoredIn[room] = gpuRound;
    }
    return score;
  }
}
