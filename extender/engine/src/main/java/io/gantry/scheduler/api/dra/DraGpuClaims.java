package io.gantry.scheduler.api.dra;

import com.google.common.collect.ImmutableSortedMap;
import io.gantry.scheduler.model.TaskInfo;
import io.gantry.scheduler.model.dra.AllocationMode;
import io.gantry.scheduler.model.dra.DeviceRequest;
import io.gantry.scheduler.model.dra.DeviceSubRequest;
import io.gantry.scheduler.model.dra.DynamicResources;
import io.gantry.scheduler.model.dra.PodClaim;
import io.gantry.scheduler.model.dra.ResourceClaim;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * How KAI counts DRA claims in the GPU dimension of quotas and fair share (kai-reference §8): a
 * device class is a GPU class when its name contains {@code gpu} in any case; a claim counts, per
 * request of a GPU class, its {@code count} ({@code ExactCount}) or 1 ({@code All}). A claim's GPUs
 * count once per queue and node however many pods use it (the session's {@code SharedGpuClaims}
 * keeps the count of users).
 */
public final class DraGpuClaims {
  private DraGpuClaims() {}

  public static boolean isGpuClass(String deviceClassName) {
    return deviceClassName.toLowerCase(Locale.ROOT).contains("gpu");
  }

  /** Whether any request of the claim, in any of its choices, asks for a GPU class. */
  public static boolean usesGpuClass(ResourceClaim claim) {
    for (DeviceRequest request : claim.requests()) {
      for (DeviceSubRequest choice : request.choices()) {
        if (isGpuClass(choice.deviceClassName())) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * GPU devices the claim counts for. A {@code firstAvailable} request counts its first choice, the
   * one the claim prefers.
   */
  public static long gpuDevices(ResourceClaim claim) {
    long devices = 0;
    for (DeviceRequest request : claim.requests()) {
      DeviceSubRequest preferred = request.choices().get(0);
      if (isGpuClass(preferred.deviceClassName())) {
        devices += preferred.allocationMode() == AllocationMode.ALL ? 1 : preferred.count();
      }
    }
    return devices;
  }

  /**
   * The task's claims that count GPUs, each once even if the pod names it twice: claim key ({@code
   * <namespace>/<name>}) to its GPU devices, in key order. A claim missing from the snapshot counts
   * nothing.
   */
  public static ImmutableSortedMap<String, Long> gpuClaims(
      TaskInfo task, DynamicResources resources) {
    ImmutableSortedMap.Builder<String, Long> out = ImmutableSortedMap.naturalOrder();
    Set<String> seen = new TreeSet<>();
    for (PodClaim podClaim : task.resourceClaims()) {
      Optional<ResourceClaim> claim = resources.claim(task.namespace(), podClaim.claimName());
      if (claim.isPresent() && seen.add(claim.get().key())) {
        long devices = gpuDevices(claim.get());
        if (devices > 0) {
          out.put(claim.get().key(), devices);
        }
      }
    }
    return out.buildOrThrow();
  }
}
