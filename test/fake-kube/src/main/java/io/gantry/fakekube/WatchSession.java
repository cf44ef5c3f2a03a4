package io.gantry.fakekube;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One open watch: a chunked HTTP response of JSON lines {@code {"type":...,"object":...}}. It
 * replays the changes after the requested resourceVersion (or the current objects as ADDED), then
 * streams changes as the store makes them, translating a MODIFIED into ADDED or DELETED when the
 * object enters or leaves the selection (as the watch cache does). It ends when {@code
 * timeoutSeconds} pass, when a test hook closes or breaks it, or when the client goes away.
 */
final class WatchSession {
  private static final Logger log = LoggerFactory.getLogger(WatchSession.class);

  /** What the stream writes next. */
  private sealed interface Outgoing permits Change, Bookmark, End {}

  private record Change(String type, ObjectNode object) implements Outgoing {}

  private record Bookmark(long resourceVersion, boolean initialEventsEnd) implements Outgoing {}

  /** Ends the stream: cleanly (final chunk) or abruptly (connection dropped). */
  private record End(boolean abrupt) implements Outgoing {}

  /** The watch request's parameters. */
  record Params(
      Selection selection,
      OptionalLong resourceVersion,
      Duration timeout,
      boolean bookmarks,
      Duration bookmarkInterval,
      boolean sendInitialEvents) {
    Params {
      requireNonNull(selection, "selection is null");
      requireNonNull(resourceVersion, "resourceVersion is null");
      requireNonNull(timeout, "timeout is null");
      requireNonNull(bookmarkInterval, "bookmarkInterval is null");
    }
  }

  private final ObjectStore store;
  private final Params params;
  private final LinkedBlockingQueue<Outgoing> queue = new LinkedBlockingQueue<>();
  private final Consumer<StoreEvent> listener = this::onStoreEvent;

  WatchSession(ObjectStore store, Params params) {
    this.store = requireNonNull(store, "store is null");
    this.params = requireNonNull(params, "params is null");
  }

  /**
   * Serves the watch on the exchange until it ends; true when it must end abruptly (the caller then
   * drops the connection instead of finishing the chunked body).
   */
  boolean serve(HttpExchange exchange, Runnable onStart) throws IOException {
    ObjectStore.WatchStart start;
    try {
      start = store.watch(params.selection().kind(), params.resourceVersion(), listener);
    } catch (StatusException e) {
      try (JsonGenerator json = lines(exchange)) {
        write(json, "ERROR", e.status().toJson());
      }
      return false;
    }
    onStart.run();
    try {
      JsonGenerator json = lines(exchange);
      for (StoreEvent event : start.initial()) {
        Optional<Change> change = translate(event);
        if (change.isPresent()) {
          write(json, change.get().type(), change.get().object());
        }
      }
      if (params.sendInitialEvents() && params.bookmarks()) {
        write(json, "BOOKMARK", bookmark(new Bookmark(start.resourceVersion(), true)));
      }
      boolean abrupt = stream(json);
      // What was written reaches the client either way; a clean end also finishes the body.
      if (abrupt) {
        json.flush();
      } else {
        json.close();
      }
      return abrupt;
    } finally {
      store.unsubscribe(listener);
    }
  }

  /** Asks the stream to end: cleanly, or abruptly as a dropped connection would. */
  void end(boolean abrupt) {
    queue.add(new End(abrupt));
  }

  /** Queues a bookmark at the store's current resourceVersion (when the client asked for them). */
  void bookmarkNow() {
    if (params.bookmarks()) {
      synchronized (store) {
        queue.add(new Bookmark(store.resourceVersion(), false));
      }
    }
  }

  /**
   * Writes what is queued until the stream ends; true when it must end abruptly. It flushes only
   * when nothing more is queued, as kube-apiserver's watch server does: a burst of changes goes out
   * in full chunks, and the last one of a burst still goes out at once.
   */
  private boolean stream(JsonGenerator json) throws IOException {
    long deadline = System.nanoTime() + params.timeout().toNanos();
    long interval = params.bookmarkInterval().toNanos();
    long nextBookmark = System.nanoTime() + interval;
    while (true) {
      long now = System.nanoTime();
      if (now >= deadline) {
        return false;
      }
      long wait = deadline - now;
      if (params.bookmarks()) {
        wait = Math.min(wait, Math.max(0, nextBookmark - now));
      }
      Outgoing next = queue.poll();
      if (next == null) {
        json.flush();
        try {
          next = queue.poll(wait, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return true;
        }
      }
      if (next == null) {
        if (params.bookmarks() && System.nanoTime() >= nextBookmark) {
          bookmarkNow();
          nextBookmark = System.nanoTime() + interval;
        }
      } else if (next instanceof Change change) {
        write(json, change.type(), change.object());
      } else if (next instanceof Bookmark bookmark) {
        write(json, "BOOKMARK", bookmark(bookmark));
      } else {
        return ((End) next).abrupt();
      }
    }
  }

  private void onStoreEvent(StoreEvent event) {
    translate(event).ifPresent(queue::add);
  }

  private Optional<Change> translate(StoreEvent event) {
    Selection selection = params.selection();
    if (!event.kind().key().equals(selection.kind().key())) {
      return Optional.empty();
    }
    boolean now = selection.matches(event.object());
    boolean before = event.previous().map(selection::matches).orElse(false);
    String type =
        switch (event.type()) {
          case StoreEvent.ADDED -> now ? StoreEvent.ADDED : null;
          case StoreEvent.DELETED -> before ? StoreEvent.DELETED : null;
          default ->
              now
                  ? (before ? StoreEvent.MODIFIED : StoreEvent.ADDED)
                  : (before ? StoreEvent.DELETED : null);
        };
    return type == null ? Optional.empty() : Optional.of(new Change(type, event.object()));
  }

  private ObjectNode bookmark(Bookmark bookmark) {
    return Bookmarks.object(
        params.selection().kind(), bookmark.resourceVersion(), bookmark.initialEventsEnd());
  }

  /** The chunked body of JSON lines: one event object per line, nothing between them. */
  private static JsonGenerator lines(HttpExchange exchange) throws IOException {
    JsonGenerator json = Responses.stream(exchange, 200);
    json.setRootValueSeparator(null);
    return json;
  }

  /** Writes one event line, {@code {"type":...,"object":...}}, into the generator's buffer. */
  private static void write(JsonGenerator json, String type, ObjectNode object) throws IOException {
    if (log.isDebugEnabled()) {
      log.debug("watch event {} {}", type, Json.write(object));
    }
    json.writeStartObject();
    json.writeStringField("type", type);
    json.writeFieldName("object");
    json.writeTree(object);
    json.writeEndObject();
    json.writeRaw('\n');
  }
}
