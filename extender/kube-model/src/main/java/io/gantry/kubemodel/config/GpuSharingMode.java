package io.gantry.kubemodel.config;

/**
 * How fraction pods get their GPU on a node (the scheduler file's {@code gpuSharing.mode}).
 *
 * <ul>
 *   <li>{@link #RESERVATION_PODS} ({@code reservation-pods}, the default): as KAI does next to
 *       NVIDIA's device plugin: the binder holds each shared GPU with a reservation pod that
 *       requests {@code nvidia.com/gpu: 1} and tells which device it got; fraction pods run on that
 *       device (kai-reference §1.7, §7).
 *   <li>{@link #DEVICE_PLUGIN} ({@code device-plugin}): Gantry's device agent is the node's device
 *       plugin for {@code nvidia.com/gpu} and {@code gantry.io/gpu-share} and resolves each pod's
 *       GPU groups itself; for clusters without NVIDIA's device plugin.
 * </ul>
 */
public enum GpuSharingMode {
  RESERVATION_PODS("reservation-pods"),
  DEVICE_PLUGIN("device-plugin");

  private final String yamlName;

  GpuSharingMode(String yamlName) {
    this.yamlName = yamlName;
  }

  /** The spelling in the scheduler file and the chart's values. */
  public String yamlName() {
    return yamlName;
  }
}
