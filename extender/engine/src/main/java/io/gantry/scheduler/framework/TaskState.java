package io.gantry.scheduler.framework;

import com.google.common.collect.ImmutableList;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.scheduler.framework.fit.PodSchedulingFailure;
import io.gantry.scheduler.model.Resources;
import io.gantry.scheduler.model.TaskInfo;
import io.gantry.scheduler.model.TaskStatus;
import java.util.Collection;
import java.util.Optional;

/** The mutable view of one task during a session; changed only by {@link Session}. */
public final class TaskState {
  private final TaskInfo info;
  private final JobState job;
  private TaskStatus status;
  private String nodeName;
  private ImmutableList<String> gpuGroups;
  private GpuAmount gpuPortion;
  private NodeCharge charge;
  private TaskPlacement evictedFrom;
  private PodSchedulingFailure fitError;

  TaskState(TaskInfo info, JobState job) {
    this.info = info;
    this.job = job;
    this.status = info.status();
    this.nodeName = info.nodeName().orElse(null);
    this.gpuGroups = info.gpuGroups();
    this.gpuPortion = info.gpuPortion();
  }

  /**
   * What tasks count for together in their queue: their CPU and memory requests, and {@code gpus}
   * (which a session sums, since shared DRA GPU claims count once).
   */
  public static Resources queueAmounts(Collection<TaskState> tasks, GpuAmount gpus) {
    if (tasks.size() == 1) {
      return tasks.iterator().next().queueAmount(gpus); // most jobs: one pod
    }
    long cpuMillis = 0;
    long memoryBytes = 0;
    for (TaskState t : tasks) {
      cpuMillis += t.info.request().cpuMillis();
      memoryBytes += t.info.request().memoryBytes();
    }
    return Resources.of(cpuMillis, memoryBytes, gpus);
  }

  /**
   * What the task counts for in its queue: its CPU and memory request, and {@code gpus}. Asked for
   * every placement and every node a task is checked on; most requests already say exactly that (no
   * extended resources, the same GPUs), and are then the amount.
   */
  public Resources queueAmount(GpuAmount gpus) {
    Resources request = info.request();
    return request.extended().isEmpty() && request.gpus().equals(gpus)
        ? request
        : Resources.of(request.cpuMillis(), request.memoryBytes(), gpus);
  }

  public TaskInfo info() {
    return info;
  }

  public String id() {
    return info.id();
  }

  public JobState job() {
    return job;
  }

  public TaskStatus status() {
    return status;
  }

  public Optional<String> nodeName() {
    return Optional.ofNullable(nodeName);
  }

  public ImmutableList<String> gpuGroups() {
    return gpuGroups;
  }

  /** Per-device portion of a shared task where it is placed; zero for whole-GPU tasks. */
  public GpuAmount gpuPortion() {
    return gpuPortion;
  }

  /**
   * The whole GPUs the task holds where it is placed, by device index, on a node that names its
   * GPUs; empty elsewhere and for shared tasks.
   */
  public ImmutableList<Integer> gpuDevices() {
    return charge == null ? ImmutableList.of() : charge.gpuDevices();
  }

  /** Why no node took this task in the pass that stopped at it. */
  public Optional<PodSchedulingFailure> fitError() {
    return Optional.ofNullable(fitError);
  }

  void setFitError(PodSchedulingFailure fitError) {
    this.fitError = fitError;
  }

  /**
   * The node this task was evicted from in this session while it is pipelined elsewhere: its old
   * pod still releases resources there.
   */
  public Optional<String> evictedFromNode() {
    return evictedFrom == null ? Optional.empty() : evictedFrom.nodeName();
  }

  TaskPlacement placement() {
    return new TaskPlacement(
        status,
        Optional.ofNullable(nodeName),
        gpuGroups,
        gpuPortion,
        charge,
        Optional.ofNullable(evictedFrom));
  }

  void apply(TaskPlacement placement) {
    this.status = placement.status();
    this.nodeName = placement.nodeName().orElse(null);
    this.gpuGroups = placement.gpuGroups();
    this.gpuPortion = placement.gpuPortion();
    this.charge = placement.charge();
    this.evictedFrom = placement.evictedFrom().orElse(null);
  }
}
