package io.gantry.gpusharing;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;

/**
 * What a node puts into a container so that it gets exactly its allocation: environment variables
 * by name and host mounts. Produced by {@link GpuAllocation#enforcement}.
 */
public record GpuEnforcement(
    ImmutableSortedMap<String, String> env, ImmutableList<HostMount> mounts) {
  public static final String NVIDIA_VISIBLE_DEVICES = "NVIDIA_VISIBLE_DEVICES";
  public static final String GPU_PORTION = "GPU_PORTION";
  public static final String RUNAI_NUM_OF_GPUS = "RUNAI_NUM_OF_GPUS";
  public static final String CUDA_DEVICE_MEMORY_LIMIT = "CUDA_DEVICE_MEMORY_LIMIT";
  public static final String CUDA_MPS_PINNED_DEVICE_MEM_LIMIT = "CUDA_MPS_PINNED_DEVICE_MEM_LIMIT";
  public static final String CUDA_MPS_ACTIVE_THREAD_PERCENTAGE =
      "CUDA_MPS_ACTIVE_THREAD_PERCENTAGE";
  public static final String CUDA_MPS_PIPE_DIRECTORY = "CUDA_MPS_PIPE_DIRECTORY";

  /** The MPS daemon's pipe directory on the host and in the container (NVIDIA's default). */
  public static final String MPS_PIPE_DIRECTORY = "/tmp/nvidia-mps";

  public GpuEnforcement {
    requireNonNull(env, "env is null");
    requireNonNull(mounts, "mounts is null");
  }
}
