package io.gantry.dradriver.prepare;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * What a ResourceClaim's {@code status.allocation} gives this driver, as plain values: its device
 * results and its opaque configurations, each with its position in the claim's list so that errors
 * can name the field.
 */
public record AllocatedClaim(ClaimRef ref, List<Result> results, List<Config> configs) {
  public AllocatedClaim {
    requireNonNull(ref, "ref is null");
    results = List.copyOf(requireNonNull(results, "results is null"));
    configs = List.copyOf(requireNonNull(configs, "configs is null"));
  }

  /** {@code status.allocation.devices.results[position]}, a device of this driver. */
  public record Result(int position, String request, String pool, String device) {
    public Result {
      requireNonNull(request, "request is null");
      requireNonNull(pool, "pool is null");
      requireNonNull(device, "device is null");
    }

    /** The request without a {@code firstAvailable} subrequest: {@code gpu} of {@code gpu/h100}. */
    public String baseRequest() {
      int slash = request.indexOf('/');
      return slash < 0 ? request : request.substring(0, slash);
    }
  }

  /**
   * {@code status.allocation.devices.config[position]}, an opaque configuration for this driver;
   * {@code requests} empty means every request.
   */
  public record Config(int position, List<String> requests, JsonNode parameters) {
    public Config {
      requests = List.copyOf(requireNonNull(requests, "requests is null"));
      requireNonNull(parameters, "parameters is null");
    }

    /** Whether this configuration applies to {@code result}. */
    public boolean appliesTo(Result result) {
      return requests.isEmpty()
          || requests.contains(result.request())
          || requests.contains(result.baseRequest());
    }

    /** Where the parameters are in the claim, for error messages. */
    public String field() {
      return "status.allocation.devices.config[" + position + "].opaque.parameters";
    }
  }
}
