package io.gantry.deviceagent.deviceplugin;

import java.util.List;

/**
 * {@code GetPreferredAllocation} for one container: which of the kubelet's available devices the
 * plugin would have it pick. Called on the plugin's gRPC threads; implementations are thread-safe.
 */
public interface DevicePreference {
  /**
   * The preferred device ids: {@code size} of {@code available}, holding every id of {@code
   * mustInclude}, or empty to leave the choice to the kubelet (which then picks as it would without
   * a preference).
   */
  List<String> preferred(List<String> available, List<String> mustInclude, int size);
}
