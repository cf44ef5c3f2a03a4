package io.gantry.dradriver;

/** The names the driver is known by: to the kubelet, in ResourceSlices and claims, and in CDI. */
public final class DriverNames {
  /** The DRA driver name: ResourceSlices' {@code spec.driver}, claim results' {@code driver}. */
  public static final String DRIVER = "gpu.gantry.io";

  /**
   * The CDI kind of the per-claim spec files ({@code vendor/class}, protocols.md §5), following
   * NVIDIA's DRA driver ({@code k8s.gpu.nvidia.com/claim}).
   */
  public static final String CDI_KIND = "k8s.gpu.gantry.io/claim";

  private DriverNames() {}

  /** The device name of the GPU with nvidia-smi index {@code index}, as NVIDIA names it. */
  public static String deviceName(int index) {
    return "gpu-" + index;
  }
}
