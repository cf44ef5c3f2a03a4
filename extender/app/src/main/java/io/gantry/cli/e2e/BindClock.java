package io.gantry.cli.e2e;

import com.fasterxml.jackson.databind.JsonNode;
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
 * from empty to set, by pod name, and the node it names. A store listener, so no watch or poll adds
 * load to the server; it only records.
 */
final class BindClock implements Consumer<StoreEvent> {
  /** When a pod was bound ({@link System#nanoTime}) and to which node. */
  record Bound(long boundNanos, String node) {}

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
    if (bound.putIfAbsent(name.asText(), new Bound(System.nanoTime(), node)) == null) {
      all.countDown();
    }
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
