package io.gantry.scheduler.framework;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.gpusharing.ComputeMode;
import io.gantry.gpusharing.DeviceSource;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.gpusharing.GpuGroupView;
import io.gantry.gpusharing.GpuSharingRequest;
import io.gantry.gpusharing.NodeGpuGroups;
import io.gantry.scheduler.model.NodeInfo;
import io.gantry.scheduler.model.NodeMigMode;
import io.gantry.scheduler.model.Resources;
import io.gantry.scheduler.model.TaskInfo;
import io.gantry.scheduler.model.TaskStatus;
import java.util.List;
import java.util.TreeSet;

/**
 * The mutable view of one node during a session: idle and releasing capacity, pod count and shared
 * GPU groups. GPUs in the vectors are whole devices; a shared group holds one device. Mutated only
 * through {@link Session} and {@link Statement}.
 */
public final class NodeState {
  private static final GpuAmount ONE_DEVICE = GpuAmount.ofDevices(1);

  private final NodeInfo info;
  private final int position;
  private Resources idle;
  private Resources releasing;
  private int podCount;
  private final NodeGpuGroups groups = new NodeGpuGroups();

  /**
   * The legacy MIG pods ({@link TaskInfo#legacyMig()}) placed here this session, as {@code
   * namespace/name}. As in KAI a pod stays on the record for the whole session, even once evicted.
   */
  private final TreeSet<String> legacyMigPods = new TreeSet<>();

  private final NodeMigMode migMode;

  /** The node's named GPUs; null when it publishes no interconnect domains. */
  private final GpuDevices devices;

  /*
   * Derived from the fields above after every change, so the many reads per task (fit checks,
   * scores, the node index) allocate nothing.
   */
  private Resources releasingWithGroups;
  private Resources idleOrReleasing;
  private int idleWholeGpus;
  private int releasingWholeGpus;
  private int sharedRoomHundredths;
  private int freeGpusInOneDomain;

  /** Bumped by every change, so what a plugin reads of the node can be kept until it moves. */
  private long version;

  NodeState(NodeInfo info, int position) {
    this.info = info;
    this.position = position;
    this.migMode = NodeMigMode.of(info);
    this.idle = info.allocatable();
    this.releasing = Resources.ZERO;
    this.devices =
        info.gpuTopology().known() && info.gpuCount() > 0
            ? new GpuDevices(info.gpuTopology(), info.gpuCount())
            : null;
    derive();
  }

  public NodeInfo info() {
    return info;
  }

  public String name() {
    return info.name();
  }

  /** Where the node is in the session's node list (the snapshot's order). */
  public int position() {
    return position;
  }

  public Resources idle() {
    return idle;
  }

  /**
   * Capacity being released: releasing tasks' requests, plus the devices of shared groups whose
   * every fraction is being released.
   */
  public Resources releasing() {
    return releasingWithGroups;
  }

  public Resources idleOrReleasing() {
    return idleOrReleasing;
  }

  public int podCount() {
    return podCount;
  }

  public int freePodSlots() {
    return info.maxPods() - podCount;
  }

  /** Whole devices holding nothing. */
  public int idleWholeGpus() {
    return idleWholeGpus;
  }

  /** Whole devices that will be free once releasing tasks are gone. */
  public int releasingWholeGpus() {
    return releasingWholeGpus;
  }

  /**
   * The largest portion, in hundredths of a device, that one of the node's shared GPUs can still
   * take now or once releasing fractions are gone ({@link GpuGroupView#idleOrReleasingPortion()} of
   * a group not wholly releasing); -1 when the node has no such group.
   */
  public int sharedRoomHundredths() {
    return sharedRoomHundredths;
  }

  /**
   * The most whole GPUs free now inside one interconnect domain, on a node that names its GPUs
   * ({@link io.gantry.scheduler.model.GpuTopology#known()}); 0 on a node that does not. A whole-GPU
   * task of up to that many taking free devices gets devices of one domain.
   */
  public int freeGpusInOneDomain() {
    return freeGpusInOneDomain;
  }

  public List<GpuGroupView> gpuGroups() {
    return groups.views();
  }

  /**
   * Changes whenever the node's state does (a task charged or discharged): a value read of the node
   * holds while this does.
   */
  public long version() {
    return version;
  }

  /**
   * Whether the node has promised some capacity twice: more than it has idle, more than is being
   * released, or more than one device of a shared GPU to the tasks that will hold it once releases
   * end.
   */
  boolean overPromised() {
    if (!Resources.ZERO.fitsIn(idle) || !Resources.ZERO.fitsIn(releasingWithGroups)) {
      return true;
    }
    for (GpuGroupView g : groups.views()) {
      if (g.allocatedPortion().compareTo(ONE_DEVICE) > 0) {
        return true;
      }
    }
    return false;
  }

  /** How the node offers its GPUs with respect to MIG, read once from its labels and resources. */
  public NodeMigMode migMode() {
    return migMode;
  }

  /** The legacy MIG pods placed here this session, in name order. */
  public List<String> legacyMigPods() {
    return List.copyOf(legacyMigPods);
  }

  /** The id for the {@code offset}-th device (from 0) a shared task is about to open. */
  String newGroupId(int offset) {
    return groups.newGroupId(info.name(), offset);
  }

  /**
   * Takes resources for a task entering {@code status} on this node. On a node that names its GPUs
   * a whole-GPU task holds {@code wantedDevices} when they can take it (a task evicted where it
   * runs keeps its devices), or devices chosen inside one interconnect domain where one has room.
   */
  NodeCharge charge(
      TaskInfo task,
      TaskStatus status,
      List<String> gpuGroups,
      GpuAmount portion,
      List<Integer> wantedDevices) {
    ComputeMode mode =
        task.gpuSharing().map(GpuSharingRequest::computeMode).orElse(ComputeMode.TIME_SLICING);
    for (String groupId : gpuGroups) {
      // a device for a new group comes from idle capacity or, for a fraction pipelined when no
      // whole device is idle, from capacity being released; read live, since the derived counts
      // are refreshed only after the loop and a multi-device task opens several groups here
      DeviceSource source =
          status == TaskStatus.PIPELINED && idle.gpus().wholeDevices() < 1
              ? DeviceSource.RELEASING
              : DeviceSource.IDLE;
      if (groups.place(groupId, portion, mode, status == TaskStatus.RELEASING, source)) {
        takeDevice(source);
        if (devices != null) {
          devices.openGroup(groupId, source, groups.views());
        }
      }
      if (status == TaskStatus.PIPELINED) {
        groups.pipelined(groupId, portion, true);
      }
    }
    Resources request = task.request();
    Resources fromIdle;
    Resources fromReleasing;
    if (status == TaskStatus.PIPELINED) {
      fromReleasing = componentMin(request, nonNegative(releasing()));
      fromIdle = request.minus(fromReleasing);
    } else {
      fromIdle = request;
      fromReleasing = Resources.ZERO;
    }
    idle = idle.minus(fromIdle);
    releasing = releasing.minus(fromReleasing);
    if (status == TaskStatus.RELEASING) {
      // a releasing task still occupies its node, but its capacity counts as releasing; a task
      // stuck in releasing does not, since its resources cannot be reused
      releasing = releasing.plus(request);
    }
    ImmutableList<Integer> taken = ImmutableList.of();
    int wholeGpus = Math.toIntExact(request.gpus().wholeDevices());
    if (devices != null && wholeGpus > 0) {
      int releasingGpus = Math.toIntExact(fromReleasing.gpus().wholeDevices());
      taken =
          devices.takeWhole(
              wholeGpus - releasingGpus,
              releasingGpus,
              status == TaskStatus.RELEASING,
              wantedDevices,
              groups.views());
    }
    podCount++;
    if (task.legacyMig()) {
      legacyMigPods.add(task.namespace() + "/" + task.podName());
    }
    derive();
    return new NodeCharge(fromIdle, fromReleasing, taken);
  }

  /** Gives back exactly what {@link #charge} took; a group's device returns with its last task. */
  void discharge(
      TaskInfo task,
      TaskStatus status,
      List<String> gpuGroups,
      GpuAmount portion,
      NodeCharge charge) {
    for (String groupId : gpuGroups) {
      if (status == TaskStatus.PIPELINED) {
        groups.pipelined(groupId, portion, false);
      }
      groups
          .remove(groupId, portion, status == TaskStatus.RELEASING)
          .ifPresent(
              source -> {
                returnDevice(source);
                if (devices != null) {
                  devices.closeGroup(groupId);
                }
              });
    }
    if (devices != null) {
      devices.giveWhole(charge.gpuDevices(), status == TaskStatus.RELEASING);
    }
    if (status == TaskStatus.RELEASING) {
      releasing = releasing.minus(task.request());
    }
    idle = idle.plus(charge.fromIdle());
    releasing = releasing.plus(charge.fromReleasing());
    podCount--;
    derive();
  }

  /** Recomputes what the getters read: releasing capacity with wholly releasing shared GPUs. */
  private void derive() {
    version++;
    long fullyReleasingGroups = groups.wholeDevicesFreedByReleasing();
    releasingWithGroups =
        fullyReleasingGroups == 0
            ? releasing
            : releasing.withGpus(releasing.gpus().plus(GpuAmount.ofDevices(fullyReleasingGroups)));
    idleOrReleasing = idle.plus(releasingWithGroups);
    idleWholeGpus = Math.toIntExact(idle.gpus().wholeDevices());
    releasingWholeGpus = Math.toIntExact(releasingWithGroups.gpus().wholeDevices());
    sharedRoomHundredths = groups.largestRoomHundredths();
    freeGpusInOneDomain = devices == null ? 0 : devices.mostFreeInOneDomain(groups.views());
  }

  private void takeDevice(DeviceSource source) {
    switch (source) {
      case IDLE -> idle = idle.withGpus(idle.gpus().minus(ONE_DEVICE));
      case RELEASING -> releasing = releasing.withGpus(releasing.gpus().minus(ONE_DEVICE));
    }
  }

  private void returnDevice(DeviceSource source) {
    switch (source) {
      case IDLE -> idle = idle.withGpus(idle.gpus().plus(ONE_DEVICE));
      case RELEASING -> releasing = releasing.withGpus(releasing.gpus().plus(ONE_DEVICE));
    }
  }

  private static Resources nonNegative(Resources r) {
    return new Resources(
        Math.max(0, r.cpuMillis()),
        Math.max(0, r.memoryBytes()),
        r.gpus().max(GpuAmount.ZERO),
        r.extended());
  }

  private static Resources componentMin(Resources a, Resources b) {
    ImmutableSortedMap.Builder<String, Long> ext = ImmutableSortedMap.naturalOrder();
    a.extended().forEach((k, v) -> ext.put(k, Math.min(v, Math.max(0, b.extended(k)))));
    return new Resources(
        Math.min(a.cpuMillis(), b.cpuMillis()),
        Math.min(a.memoryBytes(), b.memoryBytes()),
        a.gpus().min(b.gpus()),
        ext.build());
  }
}
