package io.gantry.scheduler.model.dra;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;

/**
 * One entry of an allocation's {@code devices.config}: an opaque configuration of a DeviceClass
 * ({@link Source#FROM_CLASS}) or of the claim ({@link Source#FROM_CLAIM}), and the requests it
 * applies to (no names: every request).
 */
public record AllocationConfig(Source source, ImmutableList<String> requests, OpaqueConfig opaque) {
  public AllocationConfig {
    requireNonNull(source, "source is null");
    requireNonNull(requests, "requests is null");
    requireNonNull(opaque, "opaque is null");
  }

  /** Where a configuration comes from, with the API's spelling. */
  public enum Source {
    FROM_CLASS("FromClass"),
    FROM_CLAIM("FromClaim");

    private final String apiName;

    Source(String apiName) {
      this.apiName = apiName;
    }

    /** {@code FromClass} or {@code FromClaim}, as {@code source} is written. */
    public String apiName() {
      return apiName;
    }

    /** The source the API spells {@code name}; anything else throws naming what is expected. */
    public static Source parse(String name) {
      for (Source s : values()) {
        if (s.apiName.equals(name)) {
          return s;
        }
      }
      throw new IllegalArgumentException("expected FromClass or FromClaim, got \"" + name + "\"");
    }
  }
}
