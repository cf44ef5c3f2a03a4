package io.gantry.gpusharing;

/** How {@code NVIDIA_VISIBLE_DEVICES} names devices for the container runtime. */
public enum DeviceNaming {
  /** Device UUIDs, which the NVIDIA container toolkit reads directly. */
  UUID,
  /**
   * CDI names of NVIDIA's device plugin, {@code k8s.device-plugin.nvidia.com/gpu=<uuid>}, for
   * runtimes configured for CDI (KAI's {@code cdiEnabled}).
   */
  CDI;

  static final String CDI_PREFIX = "k8s.device-plugin.nvidia.com/gpu=";

  String name(AssignedGpu gpu) {
    return switch (this) {
      case UUID -> gpu.uuid();
      case CDI -> CDI_PREFIX + gpu.uuid();
    };
  }
}
