package io.gantry.extender;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.model.ClusterSnapshot;
import io.gantry.scheduler.model.TaskStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The reservations outstanding, by pod key. A reservation ends when it expires, or when a snapshot
 * shows its pod no longer pending (bound, or gone). A pod the extender bound keeps its reservation
 * until then, so a snapshot taken before the cache shows the binding still counts its capacity.
 *
 * <p>Thread-safe. {@link #live} takes no lock: every filter and prioritize asks it, also while
 * {@link #apply} maps a whole snapshot; changes are serialized among themselves.
 */
final class ReservationBook {
  private final Map<String, Reservation> byPod = new ConcurrentHashMap<>();
  private final Set<String> bound = ConcurrentHashMap.newKeySet();

  Optional<Reservation> live(String podKey, Instant now) {
    Reservation r = byPod.get(podKey);
    if (r == null || (!bound.contains(podKey) && !now.isBefore(r.expiresAt()))) {
      return Optional.empty();
    }
    return Optional.of(r);
  }

  synchronized void reserve(List<Reservation> reservations) {
    for (Reservation r : reservations) {
      byPod.put(r.podKey(), r);
      bound.remove(r.podKey());
    }
  }

  /** The pod is bound: its reservation stays until a snapshot shows the binding. */
  synchronized void markBound(String podKey) {
    if (byPod.containsKey(podKey)) {
      bound.add(podKey);
    }
  }

  int size() {
    return byPod.size();
  }

  /** Ends the reservations expired at {@code now}; returns those whose pod was never bound. */
  synchronized ImmutableList<Reservation> expire(Instant now) {
    ImmutableList.Builder<Reservation> expired = ImmutableList.builder();
    for (Iterator<Reservation> it = byPod.values().iterator(); it.hasNext(); ) {
      Reservation r = it.next();
      if (!now.isBefore(r.expiresAt())) {
        it.remove();
        if (!bound.remove(r.podKey())) {
          expired.add(r);
        }
      }
    }
    return expired.build();
  }

  /**
   * The snapshot as the engine must see it: each pending pod with a reservation is {@code Binding}
   * on its reserved node and GPUs. Reservations whose pod the snapshot shows placed or gone end.
   * Only the planner calls this, under its lock, so no reservation is added while it runs.
   */
  ClusterSnapshot apply(ClusterSnapshot snapshot) {
    Set<String> seen = new HashSet<>();
    ClusterSnapshot out =
        Snapshots.mapTasks(
            snapshot,
            t -> {
              String key = Snapshots.podKey(t);
              Reservation r = byPod.get(key);
              if (r == null || !r.task().id().equals(t.id())) {
                return Optional.empty();
              }
              if (t.status() != TaskStatus.PENDING && t.status() != TaskStatus.GATED) {
                return Optional.empty();
              }
              seen.add(key);
              return Optional.of(Snapshots.placed(t, TaskStatus.BINDING, r.placement()));
            });
    synchronized (this) {
      List<String> ended = new ArrayList<>();
      for (String key : byPod.keySet()) {
        if (!seen.contains(key)) {
          ended.add(key);
        }
      }
      for (String key : ended) {
        byPod.remove(key);
        bound.remove(key);
      }
    }
    return out;
  }
}
