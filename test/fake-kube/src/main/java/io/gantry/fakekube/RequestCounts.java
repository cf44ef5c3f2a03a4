package io.gantry.fakekube;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import com.google.common.collect.ImmutableSortedMap;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * How many requests the server answered, by Kubernetes verb ({@code get}, {@code list}, {@code
 * watch}, {@code create}, {@code update}, {@code patch}, {@code delete}, {@code deletecollection})
 * and URL path without the query, e.g. {@code ("list", "/api/v1/namespaces/default/pods")}.
 * Thread-safe.
 */
public final class RequestCounts {
  private static final ImmutableSet<String> WRITES =
      ImmutableSet.of("create", "update", "patch", "delete", "deletecollection");

  private final TreeMap<Key, Integer> counts = new TreeMap<>();
  private final List<Key> writes = new ArrayList<>();

  /** A verb and a path. */
  public record Key(String verb, String path) implements Comparable<Key> {
    public Key {
      requireNonNull(verb, "verb is null");
      requireNonNull(path, "path is null");
    }

    @Override
    public int compareTo(Key other) {
      int byPath = path.compareTo(other.path);
      return byPath != 0 ? byPath : verb.compareTo(other.verb);
    }
  }

  synchronized void record(String verb, String path) {
    counts.merge(new Key(verb, path), 1, Integer::sum);
    if (WRITES.contains(verb)) {
      writes.add(new Key(verb, path));
    }
  }

  /** The writes ({@code create}, {@code update}, {@code patch}, deletes) in the order they came. */
  public synchronized ImmutableList<Key> writes() {
    return ImmutableList.copyOf(writes);
  }

  /** Requests with this verb on exactly this path. */
  public synchronized int count(String verb, String path) {
    return counts.getOrDefault(new Key(verb, path), 0);
  }

  /** Requests with this verb on any path. */
  public synchronized int total(String verb) {
    return counts.entrySet().stream()
        .filter(e -> e.getKey().verb().equals(verb))
        .mapToInt(e -> e.getValue())
        .sum();
  }

  /** Every count, ordered by path then verb. */
  public synchronized ImmutableSortedMap<Key, Integer> snapshot() {
    return ImmutableSortedMap.copyOfSorted(counts);
  }

  public synchronized void reset() {
    counts.clear();
    writes.clear();
  }
}
