package io.gantry.scheduler.framework;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.scheduler.model.NodeInfo;
import io.gantry.scheduler.model.Resources;
import io.gantry.scheduler.model.TaskInfo;
import io.gantry.scheduler.model.TaskStatus;
import java.util.List;
import java.util.TreeMap;

/**
 * The mutable view of one node during a session: idle and releasing capacity, pod count and shared
 * GPU groups. GPUs in the vectors are whole devices; a shared group holds one device. Mutated only
 * through {@link Session} and {@link Statement}.
 */
public final class NodeState {
  private final NodeInfo info;
  private Resources idle;
  private Resources releasing;
  private int podCount;
  private final TreeMap<String, GpuGroup> groups = new TreeMap<>();
  private int nextGroupIndex;

  NodeState(NodeInfo info) {
    this.info = info;
    this.idle = info.allocatable();
    this.releasing = Resources.ZERO;
  }

  public NodeInfo info() {
    return info;
  }

  public String name() {
    return info.name();
  }

  public Resources idle() {
    return idle;
  }

  public Resources releasing() {
    return releasing;
  }

  public Resources idleOrReleasing() {
    return idle.plus(releasing);
  }

  public int podCount() {
    return podCount;
  }

  public int freePodSlots() {
    return info.maxPods() - podCount;
  }

  /** Whole devices holding nothing. */
  public int idleWholeGpus() {
    return (int) Math.floor(idle.gpus() + 1e-9);
  }

  /** Whole devices that will be free once releasing tasks are gone. */
  public int releasingWholeGpus() {
    return (int) Math.floor(releasing.gpus() + 1e-9);
  }

  public List<GpuGroupView> gpuGroups() {
    ImmutableList.Builder<GpuGroupView> b = ImmutableList.builder();
    for (GpuGroup g : groups.values()) {
      b.add(new GpuGroupView(g.id(), g.allocatedPortion(), g.releasingPortion()));
    }
    return b.build();
  }

  /** A fresh, deterministic id for a device a shared task is about to open. */
  String newGroupId(int offset) {
    int index = nextGroupIndex + offset;
    String id = info.name() + "-gpu" + index;
    while (groups.containsKey(id)) {
      index++;
      id = info.name() + "-gpu" + index;
    }
    return id;
  }

  boolean hasGroup(String id) {
    return groups.containsKey(id);
  }

  /** Takes resources for a task entering {@code status} on this node. */
  NodeCharge charge(TaskInfo task, TaskStatus status, List<String> gpuGroups, double portion) {
    Resources request = task.request();
    ImmutableList.Builder<String> opened = ImmutableList.builder();
    int openedCount = 0;
    for (String groupId : gpuGroups) {
      if (!groups.containsKey(groupId)) {
        openedCount++;
      }
    }
    Resources devices = request.withGpus(request.gpus() + openedCount);
    Resources fromIdle;
    Resources fromReleasing;
    if (status == TaskStatus.PIPELINED) {
      fromReleasing = componentMin(devices, nonNegative(releasing));
      fromIdle = devices.minus(fromReleasing);
    } else {
      fromIdle = devices;
      fromReleasing = Resources.ZERO;
    }
    idle = idle.minus(fromIdle);
    releasing = releasing.minus(fromReleasing);
    if (status == TaskStatus.RELEASING) {
      // a releasing task still occupies its node, but its capacity counts as releasing; a task
      // stuck in releasing does not, since its resources cannot be reused
      releasing = releasing.plus(devices);
    }
    for (String groupId : gpuGroups) {
      GpuGroup group = groups.get(groupId);
      if (group == null) {
        group = new GpuGroup(groupId);
        groups.put(groupId, group);
        opened.add(groupId);
        nextGroupIndex++;
      }
      group.add(portion, status == TaskStatus.RELEASING);
    }
    podCount++;
    return new NodeCharge(fromIdle, fromReleasing, opened.build());
  }

  /** Gives back exactly what {@link #charge} took; calls are undone in reverse order. */
  void discharge(
      TaskInfo task, TaskStatus status, List<String> gpuGroups, double portion, NodeCharge charge) {
    for (String groupId : gpuGroups) {
      GpuGroup group = groups.get(groupId);
      group.remove(portion, status == TaskStatus.RELEASING);
      if (group.taskCount() == 0) {
        groups.remove(groupId);
      }
    }
    if (!charge.openedGroups().isEmpty()) {
      nextGroupIndex -= charge.openedGroups().size();
    }
    Resources devices = charge.fromIdle().plus(charge.fromReleasing());
    if (status == TaskStatus.RELEASING) {
      releasing = releasing.minus(devices);
    }
    idle = idle.plus(charge.fromIdle());
    releasing = releasing.plus(charge.fromReleasing());
    podCount--;
  }

  private static Resources nonNegative(Resources r) {
    return new Resources(
        Math.max(0, r.cpuMillis()),
        Math.max(0, r.memoryBytes()),
        Math.max(0, r.gpus()),
        r.extended());
  }

  private static Resources componentMin(Resources a, Resources b) {
    ImmutableSortedMap.Builder<String, Long> ext = ImmutableSortedMap.naturalOrder();
    a.extended().forEach((k, v) -> ext.put(k, Math.min(v, Math.max(0, b.extended(k)))));
    return new Resources(
        Math.min(a.cpuMillis(), b.cpuMillis()),
        Math.min(a.memoryBytes(), b.memoryBytes()),
        Math.min(a.gpus(), b.gpus()),
        ext.build());
  }
}
