package io.gantry.scheduler.plugins.dynamicresources;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.model.dra.AllocationConfig;
import io.gantry.scheduler.model.dra.ClaimConfig;
import io.gantry.scheduler.model.dra.DeviceClass;
import io.gantry.scheduler.model.dra.DeviceRequest;
import io.gantry.scheduler.model.dra.DeviceSubRequest;
import io.gantry.scheduler.model.dra.OpaqueConfig;
import io.gantry.scheduler.model.dra.ResourceClaim;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The {@code devices.config} of a new allocation (protocols.md §4.5 item 6), in the order
 * Kubernetes' structured allocator writes it: first the configurations of each DeviceClass the
 * allocation used, a class's entries placed where its first request is and naming every request (or
 * {@code <request>/<subrequest>}) served from it; then the claim's own configurations, in the
 * claim's order, each that applies to an allocated request: one without request names, one naming a
 * request, or one naming the subrequest a {@code firstAvailable} request chose. A configuration
 * naming only subrequests that were not chosen is left out, as Kubernetes does.
 */
final class AllocationConfigs {
  private AllocationConfigs() {}

  /**
   * @param chosen for each request of the claim, in the claim's order, the choice it was allocated
   *     from
   * @param classes the DeviceClasses by name; every chosen class exists
   */
  static ImmutableList<AllocationConfig> of(
      ResourceClaim claim, List<DeviceSubRequest> chosen, Function<String, DeviceClass> classes) {
    ImmutableList.Builder<AllocationConfig> out = ImmutableList.builder();
    Map<String, List<String>> requestsByClass = new LinkedHashMap<>();
    List<String> allocatedNames = new ArrayList<>();
    for (int i = 0; i < claim.requests().size(); i++) {
      DeviceRequest request = claim.requests().get(i);
      DeviceSubRequest choice = chosen.get(i);
      String resultName = request.resultName(choice);
      requestsByClass
          .computeIfAbsent(choice.deviceClassName(), k -> new ArrayList<>())
          .add(resultName);
      allocatedNames.add(request.name());
      if (request.exactly().isEmpty()) {
        allocatedNames.add(resultName);
      }
    }
    for (Map.Entry<String, List<String>> used : requestsByClass.entrySet()) {
      for (OpaqueConfig opaque : classes.apply(used.getKey()).config()) {
        out.add(
            new AllocationConfig(
                AllocationConfig.Source.FROM_CLASS, ImmutableList.copyOf(used.getValue()), opaque));
      }
    }
    for (ClaimConfig config : claim.config()) {
      if (config.requests().isEmpty()
          || config.requests().stream().anyMatch(allocatedNames::contains)) {
        out.add(
            new AllocationConfig(
                AllocationConfig.Source.FROM_CLAIM, config.requests(), config.opaque()));
      }
    }
    return out.build();
  }
}
