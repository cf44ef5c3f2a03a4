package io.gantry.dradriver.devices;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The devices last discovered on this node, by device name: written by the discovery loop, read by
 * prepare calls on the gRPC threads. Thread-safe; readers see one whole discovery or the next.
 */
public final class CurrentDevices {
  private final AtomicReference<ImmutableSortedMap<String, SliceDevice>> byName =
      new AtomicReference<>(ImmutableSortedMap.of());

  /** Replaces the devices; returns true when they differ from the previous ones. */
  public boolean replace(List<SliceDevice> devices) {
    ImmutableSortedMap.Builder<String, SliceDevice> next = ImmutableSortedMap.naturalOrder();
    devices.forEach(d -> next.put(d.name(), d));
    ImmutableSortedMap<String, SliceDevice> built = next.buildOrThrow();
    return !byName.getAndSet(built).equals(built);
  }

  public Optional<SliceDevice> named(String name) {
    return Optional.ofNullable(byName.get().get(name));
  }

  /** Every device, in name order. */
  public ImmutableList<SliceDevice> all() {
    return byName.get().values().asList();
  }
}
