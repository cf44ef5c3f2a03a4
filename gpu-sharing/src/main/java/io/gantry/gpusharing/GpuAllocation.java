package io.gantry.gpusharing;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * The enforcement contract between the scheduler and a node for one pod: the GPUs the scheduler
 * gave it ({@code deviceCount} devices on {@code node}, each holding {@code portion}, on the shared
 * {@code gpuGroups} when it shares), for whole GPUs on a node that publishes its NVLink domains the
 * device indices the scheduler chose ({@code chosenDevices}, sorted; empty when it chose none) and,
 * once the node has resolved them, which physical {@code devices} they are. The scheduler writes it
 * with no devices; the device agent or the DRA driver resolves the devices (preferring the chosen
 * ones) and derives the container's {@link #enforcement}. Serialised as the pod annotation {@value
 * #ANNOTATION} by {@code io.gantry.gpusharing.json.GpuAllocationJson}.
 */
public record GpuAllocation(
    String node,
    int deviceCount,
    GpuAmount portion,
    ComputeMode computeMode,
    ImmutableList<String> gpuGroups,
    ImmutableList<Integer> chosenDevices,
    ImmutableList<AssignedGpu> devices) {
  public static final String ANNOTATION = "gantry.io/gpu-allocation";
  private static final GpuAmount WHOLE_DEVICE = GpuAmount.ofDevices(1);

  public GpuAllocation {
    requireNonNull(node, "node is null");
    requireNonNull(portion, "portion is null");
    requireNonNull(computeMode, "computeMode is null");
    requireNonNull(gpuGroups, "gpuGroups is null");
    requireNonNull(chosenDevices, "chosenDevices is null");
    requireNonNull(devices, "devices is null");
    if (node.isEmpty()) {
      throw new IllegalArgumentException("node must not be empty");
    }
    if (deviceCount < 1) {
      throw new IllegalArgumentException("deviceCount must be >= 1, got " + deviceCount);
    }
    if (!portion.isPositive() || portion.compareTo(WHOLE_DEVICE) > 0) {
      throw new IllegalArgumentException("portion must be in (0, 1], got " + portion);
    }
    boolean shared = !gpuGroups.isEmpty();
    if (shared && gpuGroups.size() != deviceCount) {
      throw new IllegalArgumentException(
          "a shared allocation needs one GPU group per device ("
              + deviceCount
              + "), got "
              + gpuGroups.size());
    }
    if (!shared
        && (portion.compareTo(WHOLE_DEVICE) != 0 || computeMode != ComputeMode.TIME_SLICING)) {
      throw new IllegalArgumentException(
          "whole devices have portion 1 and compute mode time-slicing; a portion or MPS needs GPU"
              + " groups");
    }
    if (!chosenDevices.isEmpty()) {
      if (shared) {
        throw new IllegalArgumentException(
            "chosenDevices are for whole devices; a shared allocation names GPU groups");
      }
      if (chosenDevices.size() != deviceCount) {
        throw new IllegalArgumentException(
            "chosenDevices must be empty or one per device ("
                + deviceCount
                + "), got "
                + chosenDevices.size());
      }
      for (int i = 0; i < chosenDevices.size(); i++) {
        if (chosenDevices.get(i) < 0
            || (i > 0 && chosenDevices.get(i - 1) >= chosenDevices.get(i))) {
          throw new IllegalArgumentException(
              "chosenDevices must be distinct device indices >= 0 in ascending order, got "
                  + chosenDevices);
        }
      }
    }
    if (!devices.isEmpty() && devices.size() != deviceCount) {
      throw new IllegalArgumentException(
          "devices must be empty (unresolved) or one per device ("
              + deviceCount
              + "), got "
              + devices.size());
    }
  }

  /** {@code count} whole devices on {@code node}, which ones left to the node. */
  public static GpuAllocation whole(String node, int count) {
    return new GpuAllocation(
        node,
        count,
        WHOLE_DEVICE,
        ComputeMode.TIME_SLICING,
        ImmutableList.of(),
        ImmutableList.of(),
        ImmutableList.of());
  }

  /** The whole devices with indices {@code chosen} on {@code node}. */
  public static GpuAllocation wholeChosen(String node, List<Integer> chosen) {
    return new GpuAllocation(
        node,
        chosen.size(),
        WHOLE_DEVICE,
        ComputeMode.TIME_SLICING,
        ImmutableList.of(),
        ImmutableList.sortedCopyOf(chosen),
        ImmutableList.of());
  }

  /** {@code portion} of each device of {@code gpuGroups} on {@code node}. */
  public static GpuAllocation shared(
      String node, GpuAmount portion, ComputeMode mode, List<String> gpuGroups) {
    return new GpuAllocation(
        node,
        gpuGroups.size(),
        portion,
        mode,
        ImmutableList.copyOf(gpuGroups),
        ImmutableList.of(),
        ImmutableList.of());
  }

  public boolean isShared() {
    return !gpuGroups.isEmpty();
  }

  public boolean isResolved() {
    return !devices.isEmpty();
  }

  /** This allocation resolved to physical devices, in the order of its GPU groups. */
  public GpuAllocation withDevices(List<AssignedGpu> resolved) {
    return new GpuAllocation(
        node,
        deviceCount,
        portion,
        computeMode,
        gpuGroups,
        chosenDevices,
        ImmutableList.copyOf(resolved));
  }

  /** The portion with two decimals, as KAI writes {@code receivedGPU.portion}: {@code "0.50"}. */
  public String portionText() {
    return BigDecimal.valueOf(portion.hundredths(), 2).toPlainString();
  }

  /**
   * The environment and mounts that enforce this allocation in its container:
   *
   * <ul>
   *   <li>{@code NVIDIA_VISIBLE_DEVICES}: the devices, by UUID or CDI name, comma-joined;
   *   <li>{@code GPU_PORTION}: the portion per device ({@code "0.50"}; {@code "1.00"} whole) and
   *       {@code RUNAI_NUM_OF_GPUS}, KAI's older name: the same portion when shared, the device
   *       count when whole;
   *   <li>shared: {@code CUDA_DEVICE_MEMORY_LIMIT} for HAMi-core, KAI's {@code <floor(device memory
   *       × portion)>m};
   *   <li>MPS: {@code CUDA_MPS_PINNED_DEVICE_MEM_LIMIT} {@code <ordinal>=<MiB>M} per device, by the
   *       ordinal the container sees (CUDA numbers visible devices from 0 in list order), {@code
   *       CUDA_MPS_ACTIVE_THREAD_PERCENTAGE} the portion in percent, {@code
   *       CUDA_MPS_PIPE_DIRECTORY} and the pipe directory mounted from the host.
   * </ul>
   *
   * @throws IllegalStateException if the devices are not resolved yet
   */
  public GpuEnforcement enforcement(DeviceNaming naming) {
    if (!isResolved()) {
      throw new IllegalStateException(
          "GPU allocation on node " + node + " is not resolved to devices yet");
    }
    ImmutableSortedMap.Builder<String, String> env = ImmutableSortedMap.naturalOrder();
    List<String> names = new ArrayList<>();
    devices.forEach(d -> names.add(naming.name(d)));
    env.put(GpuEnforcement.NVIDIA_VISIBLE_DEVICES, String.join(",", names));
    env.put(GpuEnforcement.GPU_PORTION, portionText());
    env.put(
        GpuEnforcement.RUNAI_NUM_OF_GPUS,
        isShared() ? portionText() : Integer.toString(deviceCount));
    ImmutableList.Builder<HostMount> mounts = ImmutableList.builder();
    if (isShared()) {
      // one limit for HAMi-core: the smallest device's, so no device is over-committed
      long limitMib = Long.MAX_VALUE;
      List<String> pinned = new ArrayList<>();
      for (int ordinal = 0; ordinal < devices.size(); ordinal++) {
        long mib = PortionMemory.memoryMib(portion, devices.get(ordinal).memoryMib());
        limitMib = Math.min(limitMib, mib);
        pinned.add(ordinal + "=" + mib + "M");
      }
      env.put(GpuEnforcement.CUDA_DEVICE_MEMORY_LIMIT, limitMib + "m");
      if (computeMode == ComputeMode.MPS) {
        env.put(GpuEnforcement.CUDA_MPS_PINNED_DEVICE_MEM_LIMIT, String.join(",", pinned));
        env.put(
            GpuEnforcement.CUDA_MPS_ACTIVE_THREAD_PERCENTAGE, Long.toString(portion.hundredths()));
        env.put(GpuEnforcement.CUDA_MPS_PIPE_DIRECTORY, GpuEnforcement.MPS_PIPE_DIRECTORY);
        mounts.add(
            new HostMount(GpuEnforcement.MPS_PIPE_DIRECTORY, GpuEnforcement.MPS_PIPE_DIRECTORY));
      }
    }
    return new GpuEnforcement(env.build(), mounts.build());
  }
}
