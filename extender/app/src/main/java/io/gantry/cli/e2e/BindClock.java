package io.gantry.cli.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.gantry.fakekube.ResourceKinds;
import io.gantry.fakekube.StoreEvent;
import java.time.Duration;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Times binds as the fake API server stores them: the moment a pod's {@code spec.nodeName} goes
 * from empty to set, by pod name, the node it names and the annotations that write added (a
 * Binding's annotations land on the pod in the same write), so a ceiling can post the same
 * bindings. A store listener, so no watch or poll adds load to the server; it only records.
 */
final class BindClock implements Consumer<StoreEvent> {
  /**
   * When a pod was bound ({@link System#nanoTime}), to which node, and the annotations the binding
   * set or changed.
   */
  record Bound(long boundNanos, String node, Map<String, String> annotations) {
    Bound {
      annotations = Map.copyOf(annotations);
    }
  }

  private final Map<String, Bound> bound = new ConcurrentHashMap<>();
  private final CountDownLatch all;

  BindClock(int pods) {
    this.all = new CountDownLatch(pods);
  }

  @Override
  public void accept(StoreEvent event) {
    if (!event.kind().equals(ResourceKinds.PODS) || !event.type().equals(StoreEvent.MODIFIED)) {
      return;
    }
    String node = event.object().path("spec").path("nodeName").asText("");
    String before =
        event.previous().map(p -> p.path("spec").path("nodeName").asText("")).orElse("");
    if (node.isEmpty() || !before.isEmpty()) {
      return;
    }
    JsonNode name = event.object().path("metadata").path("name");
    Bound b =
        new Bound(
            System.nanoTime(),
            node,
            addedAnnotations(
                event.object(),
                event
                    .previous()
                    .map(p -> p.path("metadata").path("annotations"))
                    .orElse(MissingNode.getInstance())));
    if (bound.putIfAbsent(name.asText(), b) == null) {
      all.countDown();
    }
  }

  private static Map<String, String> addedAnnotations(JsonNode pod, JsonNode was) {
    Map<String, String> added = new TreeMap<>();
    pod.path("metadata")
        .path("annotations")
        .fields()
        .forEachRemaining(
            e -> {
              if (!e.getValue().equals(was.path(e.getKey()))) {
                added.put(e.getKey(), e.getValue().asText());
              }
            });
    return added;
  }

  /** Waits until every pod is bound; false when {@code timeout} passed first. */
  boolean awaitAll(Duration timeout) throws InterruptedException {
    return all.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** The binds so far, by pod name. */
  SortedMap<String, Bound> bound() {
    return new TreeMap<>(bound);
  }

  int count() {
    return bound.size();
  }
}
