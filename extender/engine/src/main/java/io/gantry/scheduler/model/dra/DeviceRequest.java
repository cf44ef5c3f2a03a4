package io.gantry.scheduler.model.dra;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import java.util.Optional;

/** One request of a claim: exactly one of {@code exactly} and {@code firstAvailable}. */
public record DeviceRequest(
    String name,
    Optional<DeviceSubRequest> exactly,
    ImmutableList<DeviceSubRequest> firstAvailable) {

  public DeviceRequest {
    requireNonNull(name, "name is null");
    requireNonNull(exactly, "exactly is null");
    requireNonNull(firstAvailable, "firstAvailable is null");
    if (exactly.isPresent() == !firstAvailable.isEmpty()) {
      throw new IllegalArgumentException(
          "request " + name + ": exactly one of exactly and firstAvailable must be set");
    }
  }

  public static DeviceRequest exactly(String name, DeviceSubRequest request) {
    return new DeviceRequest(name, Optional.of(request), ImmutableList.of());
  }

  public static DeviceRequest firstAvailable(String name, ImmutableList<DeviceSubRequest> choices) {
    return new DeviceRequest(name, Optional.empty(), choices);
  }

  /** The choices in the order they are tried; a single one for an {@code exactly} request. */
  public ImmutableList<DeviceSubRequest> choices() {
    return exactly.map(ImmutableList::of).orElse(firstAvailable);
  }

  /**
   * The name an allocation result carries for a device of this choice: the request's, or {@code
   * <request>/<subrequest>} for a {@code firstAvailable} choice.
   */
  public String resultName(DeviceSubRequest choice) {
    return exactly.isPresent() ? name : name + "/" + choice.name();
  }
}
