package io.gantry.scheduler.sim;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * What a simulation ended with, in the shape of scenario-format.md's JSON output. Lists are in a
 * deterministic order: tasks and jobs in source order, queues in source order, nodes by name,
 * events as they happened, claims by namespace and name.
 */
public record SimulationResult(
    String scenario,
    int cycles,
    ImmutableList<TaskResult> tasks,
    ImmutableList<JobResult> jobs,
    ImmutableList<QueueResult> queues,
    ImmutableList<NodeResult> nodes,
    ImmutableList<EventResult> events,
    ImmutableList<ClaimResult> claims) {

  public SimulationResult {
    requireNonNull(scenario, "scenario is null");
    requireNonNull(tasks, "tasks is null");
    requireNonNull(jobs, "jobs is null");
    requireNonNull(queues, "queues is null");
    requireNonNull(nodes, "nodes is null");
    requireNonNull(events, "events is null");
    requireNonNull(claims, "claims is null");
  }

  /** A result of a scenario without DRA claims. */
  public SimulationResult(
      String scenario,
      int cycles,
      ImmutableList<TaskResult> tasks,
      ImmutableList<JobResult> jobs,
      ImmutableList<QueueResult> queues,
      ImmutableList<NodeResult> nodes,
      ImmutableList<EventResult> events) {
    this(scenario, cycles, tasks, jobs, queues, nodes, events, ImmutableList.of());
  }

  /**
   * One ResourceClaim ({@code namespace/name}) as the last cycle left it: its allocated devices
   * ({@code <request>: <driver>/<pool>/<device>}), the opaque configurations the allocation passes
   * to the drivers ({@code <source> <requests>: <driver> <parameters JSON>}, the requests {@code *}
   * for all), the node the allocation binds it to, and the pods in {@code reservedFor}.
   * Unallocated, {@code devices} and {@code config} are empty.
   */
  public record ClaimResult(
      String claim,
      List<String> devices,
      List<String> config,
      Optional<String> node,
      List<String> reservedFor) {
    public ClaimResult {
      requireNonNull(claim, "claim is null");
      devices = ImmutableList.copyOf(devices);
      config = ImmutableList.copyOf(config);
      requireNonNull(node, "node is null");
      reservedFor = ImmutableList.copyOf(reservedFor);
    }
  }

  /**
   * One task. {@code job} is {@code namespace/name}; {@code jobName} the job's name in the file
   * (expect keys use it); {@code gpuPortion} is present for shared-GPU tasks that hold a device;
   * {@code gpuDevices} are the indices of the whole GPUs a task holds on a node that names its GPUs
   * ({@code gpuTopology}), empty elsewhere.
   */
  public record TaskResult(
      String job,
      String jobName,
      String task,
      String status,
      Optional<String> node,
      List<String> gpuGroups,
      OptionalDouble gpuPortion,
      List<Integer> gpuDevices,
      Optional<String> message) {
    public TaskResult {
      requireNonNull(job, "job is null");
      requireNonNull(jobName, "jobName is null");
      requireNonNull(task, "task is null");
      requireNonNull(status, "status is null");
      requireNonNull(node, "node is null");
      gpuGroups = ImmutableList.copyOf(gpuGroups);
      requireNonNull(gpuPortion, "gpuPortion is null");
      gpuDevices = ImmutableList.copyOf(gpuDevices);
      requireNonNull(message, "message is null");
    }
  }

  /** One job; {@code status} is the status all its tasks share, or {@code Mixed}. */
  public record JobResult(
      String job,
      String jobName,
      String status,
      ImmutableSortedMap<String, Integer> taskStatuses,
      List<String> nodes,
      String queue,
      Optional<String> message) {
    public JobResult {
      requireNonNull(job, "job is null");
      requireNonNull(jobName, "jobName is null");
      requireNonNull(status, "status is null");
      requireNonNull(taskStatuses, "taskStatuses is null");
      nodes = ImmutableList.copyOf(nodes);
      requireNonNull(queue, "queue is null");
      requireNonNull(message, "message is null");
    }
  }

  /**
   * One queue, per resource: GPUs in devices, CPU in millicores, memory in bytes; {@code quota} as
   * configured in the same units (-1 unlimited); {@code parent} the queue it is a child of, none
   * for a top-level queue.
   */
  public record QueueResult(
      String queue, Amounts fairShare, Amounts allocated, Amounts quota, Optional<String> parent) {
    public QueueResult {
      requireNonNull(queue, "queue is null");
      requireNonNull(fairShare, "fairShare is null");
      requireNonNull(allocated, "allocated is null");
      requireNonNull(quota, "quota is null");
      requireNonNull(parent, "parent is null");
    }

    /** A top-level queue. */
    public QueueResult(String queue, Amounts fairShare, Amounts allocated, Amounts quota) {
      this(queue, fairShare, allocated, quota, Optional.empty());
    }
  }

  /** GPU devices, CPU millicores, memory bytes. */
  public record Amounts(double gpu, double cpu, double memory) {
    public double get(String resource) {
      return switch (resource) {
        case "gpu" -> gpu;
        case "cpu" -> cpu;
        case "memory" -> memory;
        default -> throw new IllegalArgumentException("unknown queue resource " + resource);
      };
    }
  }

  /**
   * One node's GPUs: whole idle devices, whole releasing devices, devices in use, shared groups.
   */
  public record NodeResult(
      String node,
      int idleGpus,
      int releasingGpus,
      int usedGpus,
      List<SharedGpuGroup> sharedGpuGroups) {
    public NodeResult {
      requireNonNull(node, "node is null");
      sharedGpuGroups = ImmutableList.copyOf(sharedGpuGroups);
    }
  }

  public record SharedGpuGroup(String group, double usedFraction) {
    public SharedGpuGroup {
      requireNonNull(group, "group is null");
    }
  }

  public record EventResult(int cycle, String object, String reason, String message) {
    public EventResult {
      requireNonNull(object, "object is null");
      requireNonNull(reason, "reason is null");
      requireNonNull(message, "message is null");
    }
  }
}
