package io.gantry.nodecommon.nvidiasmi;

import static java.util.Objects.requireNonNull;

import java.util.Collections;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/** The MIG devices {@code nvidia-smi -L} lists, by parent GPU UUID, in MIG device index order. */
public record MigListing(SortedMap<String, List<MigIdentity>> byGpuUuid) {
  public MigListing {
    SortedMap<String, List<MigIdentity>> copy = new TreeMap<>();
    requireNonNull(byGpuUuid, "byGpuUuid is null").forEach((k, v) -> copy.put(k, List.copyOf(v)));
    byGpuUuid = Collections.unmodifiableSortedMap(copy);
  }

  /** One MIG device line: {@code MIG 1g.10gb Device 2: (UUID: MIG-...)}. */
  public record MigIdentity(int index, String profile, String uuid) {
    public MigIdentity {
      requireNonNull(profile, "profile is null");
      requireNonNull(uuid, "uuid is null");
    }
  }

  /** The MIG devices of the GPU with {@code gpuUuid}; empty when -L listed none. */
  public List<MigIdentity> of(String gpuUuid) {
    return byGpuUuid.getOrDefault(gpuUuid, List.of());
  }
}
