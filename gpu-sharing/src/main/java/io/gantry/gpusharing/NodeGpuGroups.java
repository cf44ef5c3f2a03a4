package io.gantry.gpusharing;

import com.google.common.collect.ImmutableList;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The shared GPU groups of one node (kai-reference §7): which portions of which devices are
 * allocated or releasing, by group id. The first fraction placed on a group takes a whole device
 * from the node (the caller takes it from its idle or releasing vector, as {@link #place} says);
 * the device goes back to where it came from when the group's last task leaves ({@link #remove}).
 * Not thread-safe; one session mutates it.
 */
public final class NodeGpuGroups {
  private final TreeMap<String, GpuGroup> groups = new TreeMap<>();
  // the node search asks for the views of every candidate node for every task, far more often
  // than a placement changes them; null once a change made them stale
  private ImmutableList<GpuGroupView> views = ImmutableList.of();

  /**
   * Puts {@code portion} of a device on group {@code groupId}, for a task that is {@code releasing}
   * or not. When the group does not exist yet it is opened in {@code mode} with a device from
   * {@code sourceIfNew}, and the result says so: the caller must take that device.
   *
   * @throws IllegalArgumentException if the group runs another compute mode
   */
  public boolean place(
      String groupId,
      GpuAmount portion,
      ComputeMode mode,
      boolean releasing,
      DeviceSource sourceIfNew) {
    GpuGroup group = groups.get(groupId);
    views = null;
    boolean opened = group == null;
    if (opened) {
      group = new GpuGroup(groupId, sourceIfNew, mode);
      groups.put(groupId, group);
    } else if (group.view().computeMode() != mode) {
      throw new IllegalArgumentException(
          "GPU group "
              + groupId
              + " runs "
              + group.view().computeMode().wireName()
              + " tasks; a "
              + mode.wireName()
              + " task cannot share it");
    }
    group.add(portion, releasing);
    return opened;
  }

  /**
   * Takes back what {@link #place} put. When the group's last task leaves the group closes, and the
   * result names where its device returns.
   *
   * @throws IllegalArgumentException if the group does not exist
   */
  public Optional<DeviceSource> remove(String groupId, GpuAmount portion, boolean releasing) {
    GpuGroup group = groups.get(groupId);
    if (group == null) {
      throw new IllegalArgumentException("no GPU group " + groupId + " on this node");
    }
    views = null;
    group.remove(portion, releasing);
    if (group.taskCount() > 0) {
      return Optional.empty();
    }
    groups.remove(groupId);
    return Optional.of(group.source());
  }

  /**
   * Records that {@code portion} which {@link #place} put on the group belongs to a pipelined task
   * ({@code add}), or no longer does: a group that only pipelined tasks hold has no room to bind
   * into ({@link GpuGroupView#idlePortion}).
   */
  public void pipelined(String groupId, GpuAmount portion, boolean add) {
    GpuGroup group = groups.get(groupId);
    if (group == null) {
      throw new IllegalArgumentException("no GPU group " + groupId + " on this node");
    }
    views = null;
    group.pipelined(portion, add);
  }

  public boolean isEmpty() {
    return groups.isEmpty();
  }

  /** Every group, by id. */
  public ImmutableList<GpuGroupView> views() {
    if (views == null) {
      ImmutableList.Builder<GpuGroupView> b = ImmutableList.builderWithExpectedSize(groups.size());
      groups.values().forEach(g -> b.add(g.view()));
      views = b.build();
    }
    return views;
  }

  /**
   * Devices that become free once releasing tasks are gone: groups whose every fraction is
   * releasing, counted only when the device came from idle capacity (one that came from releasing
   * capacity is already counted there).
   */
  public int wholeDevicesFreedByReleasing() {
    int n = 0;
    for (GpuGroup g : groups.values()) {
      GpuGroupView v = g.view();
      if (v.allReleasing() && v.source() == DeviceSource.IDLE) {
        n++;
      }
    }
    return n;
  }

  /**
   * The largest portion, in hundredths, that a group not wholly releasing can still take now or
   * after pipelining; -1 when there is no such group.
   */
  public int largestRoomHundredths() {
    int room = -1;
    for (GpuGroup g : groups.values()) {
      GpuGroupView v = g.view();
      if (!v.allReleasing()) {
        room = Math.max(room, Math.toIntExact(v.idleOrReleasingHundredths()));
      }
    }
    return room;
  }

  /**
   * A deterministic id for the {@code offset}-th device (from 0) a task is about to open on node
   * {@code nodeName}: the lowest free {@code <node>-gpu<k>} ids, so undoing and redoing a placement
   * gives the same ids.
   */
  public String newGroupId(String nodeName, int offset) {
    int found = -1;
    for (int k = 0; ; k++) {
      String id = nodeName + "-gpu" + k;
      if (!groups.containsKey(id) && ++found == offset) {
        return id;
      }
    }
  }
}
