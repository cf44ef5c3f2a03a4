package io.gantry.scheduler.testing;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.gpusharing.GpuAmount;
import io.gantry.gpusharing.GpuSharingRequest;
import io.gantry.scheduler.model.JobInfo;
import io.gantry.scheduler.model.Quantity;
import io.gantry.scheduler.model.Resources;
import io.gantry.scheduler.model.TaskInfo;
import io.gantry.scheduler.model.TaskStatus;
import io.gantry.scheduler.model.dra.PodClaim;
import io.gantry.scheduler.model.placement.Affinity;
import io.gantry.scheduler.model.placement.PodPlacementRequirements;
import io.gantry.scheduler.model.placement.Toleration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;

/**
 * Builds {@link TaskInfo}s: {@code Tasks.task("t0").gpus(1).build()}. A task built here is not yet
 * part of a job; {@link Jobs.Builder#task} stamps its id ({@code ns/job/task}), job id, namespace,
 * pod name ({@code job-task}) and creation order. Defaults: PodSet {@code default}, no resources,
 * Pending.
 */
public final class Tasks {
  private Tasks() {}

  public static Builder task(String name) {
    return new Builder(name);
  }

  public static final class Builder {
    private final String name;
    private String podSet = JobInfo.DEFAULT_POD_SET;
    private long cpuMillis;
    private long memoryBytes;
    private long gpus;
    private final TreeMap<String, Long> extended = new TreeMap<>();
    private Optional<Double> fraction = Optional.empty();
    private Optional<Long> gpuMemoryMib = Optional.empty();
    private int numDevices = 1;
    private TaskStatus status = TaskStatus.PENDING;
    private Optional<String> nodeName = Optional.empty();
    private List<String> gpuGroups = List.of();
    private GpuAmount gpuPortion = GpuAmount.ZERO;
    private OptionalInt taskPriority = OptionalInt.empty();
    private final TreeMap<String, String> labels = new TreeMap<>();
    private final TreeMap<String, String> nodeSelector = new TreeMap<>();
    private final List<Toleration> tolerations = new ArrayList<>();
    private Affinity affinity = Affinity.none();
    private final List<PodClaim> resourceClaims = new ArrayList<>();
    private List<Integer> gpuDevices = List.of();
    private Optional<Map.Entry<String, Long>> legacyMig = Optional.empty();

    private Builder(String name) {
      this.name = name;
    }

    public Builder podSet(String podSet) {
      this.podSet = podSet;
      return this;
    }

    /** Whole GPUs ({@code nvidia.com/gpu}). */
    public Builder gpus(long gpus) {
      this.gpus = gpus;
      return this;
    }

    public Builder cpuMillis(long cpuMillis) {
      this.cpuMillis = cpuMillis;
      return this;
    }

    public Builder cpu(String cores) {
      return cpuMillis(Quantity.toMillis(Quantity.parse(cores)));
    }

    public Builder memoryBytes(long memoryBytes) {
      this.memoryBytes = memoryBytes;
      return this;
    }

    public Builder memory(String bytes) {
      return memoryBytes(Quantity.toWhole(Quantity.parse(bytes)));
    }

    public Builder extended(String resource, long count) {
      extended.put(resource, count);
      return this;
    }

    /** A shared-GPU request by fraction ({@code gpu-fraction}). */
    public Builder gpuFraction(double fraction) {
      this.fraction = Optional.of(fraction);
      this.gpuMemoryMib = Optional.empty();
      return this;
    }

    /** A shared-GPU request by memory ({@code gpu-memory}, MiB). */
    public Builder gpuMemoryMib(long mib) {
      this.gpuMemoryMib = Optional.of(mib);
      this.fraction = Optional.empty();
      return this;
    }

    /** {@code gpu-fraction-num-devices}. */
    public Builder numDevices(int numDevices) {
      this.numDevices = numDevices;
      return this;
    }

    public Builder status(TaskStatus status) {
      this.status = status;
      return this;
    }

    /** Running on {@code node}. */
    public Builder running(String node) {
      this.status = TaskStatus.RUNNING;
      this.nodeName = Optional.of(node);
      return this;
    }

    /** Being deleted on {@code node}: its resources are releasing. */
    public Builder releasing(String node) {
      this.status = TaskStatus.RELEASING;
      this.nodeName = Optional.of(node);
      return this;
    }

    /** Pending with scheduling gates. */
    public Builder gated() {
      this.status = TaskStatus.GATED;
      return this;
    }

    /**
     * For a placed shared task: the GPU groups it holds and its per-device portion there, in
     * devices ({@code 0.5}), rounded to hundredths as a {@code gpu-fraction} is.
     */
    public Builder onGpuGroups(double portion, String... groups) {
      this.gpuPortion = GpuAmount.ofDevicesRoundedHalfUp(portion);
      this.gpuGroups = List.of(groups);
      return this;
    }

    /** The {@code kai.scheduler/task-priority} label. */
    public Builder taskPriority(int priority) {
      this.taskPriority = OptionalInt.of(priority);
      return this;
    }

    public Builder label(String key, String value) {
      labels.put(key, value);
      return this;
    }

    public Builder nodeSelector(String key, String value) {
      nodeSelector.put(key, value);
      return this;
    }

    public Builder tolerations(Toleration... more) {
      tolerations.addAll(List.of(more));
      return this;
    }

    public Builder affinity(Affinity affinity) {
      this.affinity = affinity;
      return this;
    }

    /**
     * A DRA claim of the pod from a template: its name in the pod and the ResourceClaim generated
     * for it.
     */
    public Builder claim(String podClaimName, String claimName) {
      resourceClaims.add(new PodClaim(podClaimName, claimName, true));
      return this;
    }

    /** A DRA claim the pod names ({@code resourceClaimName}), which pods may share. */
    public Builder sharedClaim(String podClaimName, String claimName) {
      resourceClaims.add(new PodClaim(podClaimName, claimName, false));
      return this;
    }

    /** For a placed whole-GPU task on a node with GPU domains: the device indices it holds. */
    public Builder gpuDevices(Integer... devices) {
      this.gpuDevices = List.of(devices);
      return this;
    }

    /** A legacy MIG pod asking for {@code count} instances through its annotation. */
    public Builder legacyMig(String migResource, long count) {
      this.legacyMig = Optional.of(Map.entry(migResource, count));
      return this;
    }

    public TaskInfo build() {
      TaskInfo task = plain();
      return legacyMig.map(m -> task.asLegacyMig(m.getKey(), m.getValue())).orElse(task);
    }

    private TaskInfo plain() {
      Optional<GpuSharingRequest> sharing = Optional.empty();
      if (fraction.isPresent()) {
        sharing = Optional.of(GpuSharingRequest.ofFraction(fraction.get(), numDevices));
      } else if (gpuMemoryMib.isPresent()) {
        sharing = Optional.of(GpuSharingRequest.ofMemory(gpuMemoryMib.get(), numDevices));
      }
      return new TaskInfo(
          name,
          name,
          name,
          "",
          "",
          podSet,
          new Resources(
              cpuMillis,
              memoryBytes,
              GpuAmount.ofDevices(gpus),
              ImmutableSortedMap.copyOf(extended)),
          sharing,
          status,
          nodeName,
          ImmutableList.copyOf(gpuGroups),
          gpuPortion,
          taskPriority,
          ImmutableSortedMap.copyOf(labels),
          new PodPlacementRequirements(
              ImmutableSortedMap.copyOf(nodeSelector), ImmutableList.copyOf(tolerations), affinity),
          0,
          ImmutableList.copyOf(resourceClaims),
          ImmutableList.copyOf(gpuDevices));
    }
  }
}
