package io.gantry.fakekube;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * The fake etcd: objects by kind, namespace and name, one global resourceVersion counter that every
 * write increments, the change history, and the listeners (open watches, the fake kubelet) told of
 * each change in order. Callers that read, check and write hold the store's monitor ({@code
 * synchronized (store)}) across the steps; listeners are called under it and must only enqueue.
 *
 * <p>A stored object is never modified: every write stores a new node in its place. So a stored
 * node may be shared, unlocked, with whoever only reads it (the events of open watches, a {@link
 * Listing} being written out); {@link #get} and {@link #list} hand out copies to callers that may
 * change what they receive.
 */
final class ObjectStore {
  private final TreeMap<String, TreeMap<ObjectName, ObjectNode>> objects = new TreeMap<>();
  private final List<Consumer<StoreEvent>> listeners = new ArrayList<>();
  private final EventHistory history;
  private long resourceVersion;

  /** Namespace (empty when cluster-scoped) and name, ordered as lists return them. */
  record ObjectName(String namespace, String name) implements Comparable<ObjectName> {
    ObjectName {
      requireNonNull(namespace, "namespace is null");
      requireNonNull(name, "name is null");
    }

    @Override
    public int compareTo(ObjectName other) {
      int byNamespace = namespace.compareTo(other.namespace);
      return byNamespace != 0 ? byNamespace : name.compareTo(other.name);
    }
  }

  /**
   * The stored objects a selection saw at one resourceVersion, ordered by namespace and name. The
   * nodes are the stored ones, shared: only read them.
   */
  record Listing(long resourceVersion, ImmutableList<ObjectNode> items) {
    Listing {
      requireNonNull(items, "items is null");
    }
  }

  /** What a new watch starts from: the changes to replay, and the store's resourceVersion. */
  record WatchStart(List<StoreEvent> initial, long resourceVersion) {
    WatchStart {
      initial = List.copyOf(initial);
    }
  }

  ObjectStore(int historySize) {
    this.history = new EventHistory(historySize);
  }

  synchronized long resourceVersion() {
    return resourceVersion;
  }

  synchronized Optional<ObjectNode> get(ResourceKind kind, String namespace, String name) {
    ObjectNode object = table(kind).get(new ObjectName(namespace, name));
    return Optional.ofNullable(object).map(ObjectNode::deepCopy);
  }

  /** Copies of the selected objects, ordered by namespace and name. */
  synchronized List<ObjectNode> list(Selection selection) {
    List<ObjectNode> result = new ArrayList<>();
    for (ObjectNode object : listing(selection).items()) {
      result.add(object.deepCopy());
    }
    return result;
  }

  /**
   * The selected stored objects themselves, without copying, and the resourceVersion they are
   * current at: what a list response writes out after the lock is released.
   */
  synchronized Listing listing(Selection selection) {
    ImmutableList.Builder<ObjectNode> items = ImmutableList.builder();
    for (ObjectNode object : table(selection.kind()).values()) {
      if (selection.matches(object)) {
        items.add(object);
      }
    }
    return new Listing(resourceVersion, items.build());
  }

  /** Stores the object under a new resourceVersion and tells the listeners; returns a copy. */
  synchronized ObjectNode put(ResourceKind kind, ObjectNode object) {
    ObjectName key = new ObjectName(Json.namespace(object), Json.name(object));
    ObjectNode previous = table(kind).get(key);
    long version = ++resourceVersion;
    ObjectNode stored = Json.canonical(object);
    Json.metadata(stored).put("resourceVersion", Long.toString(version));
    table(kind).put(key, stored);
    emit(
        new StoreEvent(
            previous == null ? StoreEvent.ADDED : StoreEvent.MODIFIED,
            kind,
            version,
            stored,
            Optional.ofNullable(previous)));
    return stored.deepCopy();
  }

  /** Removes the object; the DELETED event carries it stamped with the deletion's version. */
  synchronized Optional<ObjectNode> remove(ResourceKind kind, String namespace, String name) {
    ObjectNode previous = table(kind).remove(new ObjectName(namespace, name));
    if (previous == null) {
      return Optional.empty();
    }
    long version = ++resourceVersion;
    ObjectNode last = previous.deepCopy();
    Json.metadata(last).put("resourceVersion", Long.toString(version));
    emit(new StoreEvent(StoreEvent.DELETED, kind, version, last, Optional.of(previous)));
    return Optional.of(last.deepCopy());
  }

  /**
   * Registers a listener for every later change and returns, atomically with it, the changes of the
   * kind after {@code from} (410 Status when compacted), or with no {@code from} the current
   * objects of the kind as ADDED events.
   */
  synchronized WatchStart watch(
      ResourceKind kind, OptionalLong from, Consumer<StoreEvent> listener) {
    List<StoreEvent> initial = new ArrayList<>();
    if (from.isPresent()) {
      initial.addAll(history.since(from.getAsLong(), kind));
    } else {
      for (ObjectNode object : table(kind).values()) {
        long version = Long.parseLong(Json.text(object, "metadata.resourceVersion").orElse("0"));
        initial.add(new StoreEvent(StoreEvent.ADDED, kind, version, object, Optional.empty()));
      }
    }
    listeners.add(listener);
    return new WatchStart(initial, resourceVersion);
  }

  synchronized void subscribe(Consumer<StoreEvent> listener) {
    listeners.add(listener);
  }

  synchronized void unsubscribe(Consumer<StoreEvent> listener) {
    listeners.remove(listener);
  }

  /** Forgets the history up to now: a watch from any older resourceVersion gets 410. */
  synchronized void compact() {
    history.compact(resourceVersion);
  }

  private void emit(StoreEvent event) {
    history.append(event);
    for (Consumer<StoreEvent> listener : List.copyOf(listeners)) {
      listener.accept(event);
    }
  }

  private SortedMap<ObjectName, ObjectNode> table(ResourceKind kind) {
    return objects.computeIfAbsent(kind.key(), k -> new TreeMap<>());
  }
}
