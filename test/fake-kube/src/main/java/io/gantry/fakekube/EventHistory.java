package io.gantry.fakekube;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The last {@code capacity} changes of every kind, in resourceVersion order: etcd's history between
 * compactions. A watch may start from any resourceVersion at or after the last compacted one; an
 * older one is answered 410 Expired. Not thread-safe; the store guards it.
 */
final class EventHistory {
  private final int capacity;
  private final ArrayDeque<StoreEvent> events = new ArrayDeque<>();
  private long compactedThrough;

  EventHistory(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("history capacity must be at least 1, got " + capacity);
    }
    this.capacity = capacity;
  }

  void append(StoreEvent event) {
    events.addLast(event);
    while (events.size() > capacity) {
      compactedThrough = events.removeFirst().resourceVersion();
    }
  }

  /** Forgets every change up to and including {@code resourceVersion}. */
  void compact(long resourceVersion) {
    while (!events.isEmpty() && events.peekFirst().resourceVersion() <= resourceVersion) {
      events.removeFirst();
    }
    compactedThrough = Math.max(compactedThrough, resourceVersion);
  }

  /** The changes of one kind after {@code resourceVersion}; a 410 Status when compacted away. */
  List<StoreEvent> since(long resourceVersion, ResourceKind kind) {
    if (resourceVersion < compactedThrough) {
      throw new StatusException(KubeStatus.expired(resourceVersion, compactedThrough + 1));
    }
    List<StoreEvent> result = new ArrayList<>();
    for (StoreEvent event : events) {
      if (event.resourceVersion() > resourceVersion && event.kind().key().equals(kind.key())) {
        result.add(event);
      }
    }
    return result;
  }
}
