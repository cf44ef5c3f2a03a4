package io.gantry.scheduler.framework;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.gantry.gpusharing.ComputeMode;
import io.gantry.gpusharing.DeviceChooser;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.gpusharing.GpuCandidate;
import io.gantry.gpusharing.GpuCandidates;
import io.gantry.gpusharing.GpuSharingRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Whether a task's resources fit on a node, now (idle) or once releasing tasks are gone, and for
 * shared-GPU tasks which devices it would use (kai-reference §7). Pure functions of the state.
 */
public final class GpuFit {
  private GpuFit() {}

  /** The devices a shared task may use on a node, ordered by the session's GPU scorers. */
  public record Selection(ImmutableList<String> gpuGroups, GpuAmount portion, boolean idleNow) {
    public Selection {
      requireNonNull(gpuGroups, "gpuGroups is null");
      requireNonNull(portion, "portion is null");
    }
  }

  /**
   * The per-device portion a shared task takes on the node; zero for other tasks. Over one device
   * when a memory request is larger than the node's devices ({@link #fitsDevice}).
   */
  public static GpuAmount portionOn(TaskState task, NodeState node) {
    // no Optional.map: asked for every node a shared task is checked on
    Optional<GpuSharingRequest> sharing = task.info().gpuSharing();
    return sharing.isPresent()
        ? sharing.get().portionOn(node.info().gpuMemoryMib())
        : GpuAmount.ZERO;
  }

  /** Whether one device of the node can hold the task's portion (always, for unshared tasks). */
  public static boolean fitsDevice(TaskState task, NodeState node) {
    return task.info()
        .gpuSharing()
        .map(s -> s.fitsDeviceOn(node.info().gpuMemoryMib()))
        .orElse(true);
  }

  /** Fits in idle plus releasing capacity (allocation or pipelining is possible). */
  public static boolean fits(TaskState task, NodeState node, PluginHooks hooks) {
    if (!task.info().request().fitsIn(node.idleOrReleasing())) {
      return false;
    }
    return task.info().gpuSharing().isEmpty() || select(task, node, hooks).isPresent();
  }

  /** Fits in idle capacity alone: can be bound now. */
  public static boolean fitsIdleNow(TaskState task, NodeState node) {
    if (!task.info().request().fitsIn(node.idle())) {
      return false;
    }
    Optional<GpuSharingRequest> sharing = task.info().gpuSharing();
    if (sharing.isEmpty()) {
      return true;
    }
    if (!fitsDevice(task, node)) {
      return false;
    }
    return GpuCandidates.usableNow(
            node.gpuGroups(),
            node.idleWholeGpus(),
            portionOn(task, node),
            sharing.get().computeMode())
        >= sharing.get().numDevices();
  }

  /** Candidate devices for a shared task: existing groups it fits on and whole free devices. */
  public static List<GpuCandidate> candidates(TaskState task, NodeState node) {
    ComputeMode mode =
        task.info()
            .gpuSharing()
            .map(GpuSharingRequest::computeMode)
            .orElse(ComputeMode.TIME_SLICING);
    return GpuCandidates.of(
        node.gpuGroups(),
        node.idleWholeGpus(),
        node.releasingWholeGpus(),
        portionOn(task, node),
        mode);
  }

  /**
   * Picks the devices for a shared task: candidates ordered by GPU score (highest first; among
   * equal scores, devices usable now before releasing ones), the first {@code numDevices} taken. A
   * new device needs two free pod slots (the task and its reservation pod). Empty when a memory
   * request is larger than the node's devices.
   */
  public static Optional<Selection> select(TaskState task, NodeState node, PluginHooks hooks) {
    Optional<GpuSharingRequest> sharing = task.info().gpuSharing();
    if (sharing.isEmpty()) {
      return Optional.empty();
    }
    if (sharing.get().byMemory() && !node.info().gpuMemorySynced()) {
      return Optional.empty();
    }
    if (!fitsDevice(task, node)) {
      return Optional.empty();
    }
    Optional<ImmutableList<GpuCandidate>> choice =
        DeviceChooser.choose(
            candidates(task, node), sharing.get().numDevices(), c -> hooks.scoreGpu(task, node, c));
    if (choice.isEmpty()) {
      return Optional.empty();
    }
    List<String> groups = new ArrayList<>();
    int opened = 0;
    boolean idleNow = true;
    for (GpuCandidate c : choice.get()) {
      idleNow &= c.idleNow();
      if (c.groupId().isPresent()) {
        groups.add(c.groupId().get());
      } else {
        groups.add(node.newGroupId(opened++));
      }
    }
    if (opened > 0 && node.freePodSlots() < 2) {
      return Optional.empty();
    }
    return Optional.of(new Selection(ImmutableList.copyOf(groups), portionOn(task, node), idleNow));
  }

  /** GPUs the task counts for in its queue when placed on this node. */
  public static GpuAmount quotaGpusOn(TaskState task, NodeState node) {
    return task.info()
        .gpuSharing()
        .map(s -> s.quotaGpusOn(node.info().gpuMemoryMib()))
        .orElse(task.info().request().gpus());
  }
}
