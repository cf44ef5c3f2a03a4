package io.gantry.scheduler.kube.snapshot;

import io.gantry.gpusharing.GpuAmount;
import io.gantry.scheduler.model.ResourceNames;
import io.gantry.scheduler.model.Resources;
import io.kubernetes.client.custom.Quantity;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Map;
import java.util.TreeMap;

/**
 * Kubernetes resource lists to the engine's {@link Resources} and back: CPU in millicores and
 * memory in bytes (rounded up, as the API server's {@code MilliValue}/{@code Value} do), {@code
 * nvidia.com/gpu} in whole devices, every other resource as a whole count. {@code pods} is not a
 * resource of a request; nodes report it as their pod capacity.
 */
public final class KubeQuantities {
  static final String PODS = "pods";

  private KubeQuantities() {}

  static Resources resources(Map<String, Quantity> list) {
    if (list == null || list.isEmpty()) {
      return Resources.ZERO;
    }
    long cpu = 0;
    long memory = 0;
    long gpus = 0;
    TreeMap<String, Long> extended = new TreeMap<>();
    for (Map.Entry<String, Quantity> e : list.entrySet()) {
      if (e.getValue() == null) {
        continue;
      }
      BigDecimal n = e.getValue().getNumber();
      switch (e.getKey()) {
        case ResourceNames.CPU -> cpu = millis(n);
        case ResourceNames.MEMORY -> memory = whole(n);
        case ResourceNames.GPU -> gpus = whole(n);
        case PODS -> {}
        default -> extended.put(e.getKey(), whole(n));
      }
    }
    return new Resources(
        cpu,
        memory,
        GpuAmount.ofDevices(gpus),
        com.google.common.collect.ImmutableSortedMap.copyOf(extended));
  }

  static long millis(BigDecimal n) {
    return n.movePointRight(3).setScale(0, RoundingMode.CEILING).longValue();
  }

  static long whole(BigDecimal n) {
    return n.setScale(0, RoundingMode.CEILING).longValue();
  }

  /** A resource list as Kubernetes writes it: {@code cpu: 1500m}, memory in bytes, GPUs decimal. */
  public static Map<String, String> resourceList(
      double cpuMillis, double memoryBytes, double gpus) {
    TreeMap<String, String> out = new TreeMap<>();
    out.put(ResourceNames.CPU, Math.round(cpuMillis) + "m");
    out.put(ResourceNames.MEMORY, Long.toString(Math.round(memoryBytes)));
    out.put(
        ResourceNames.GPU,
        BigDecimal.valueOf(gpus)
            .setScale(2, RoundingMode.HALF_UP)
            .stripTrailingZeros()
            .toPlainString());
    return out;
  }
}
