package io.gantry.deviceagent.deviceplugin;

/**
 * Hears every health change the device plugins report to the kubelet. Called on the thread that fed
 * the change (discovery, or NVML's XID thread) while the tracker holds its lock, so it must return
 * at once: hand the change on, never wait.
 */
@FunctionalInterface
public interface GpuHealthListener {
  void healthChanged(GpuHealthChange change);
}
