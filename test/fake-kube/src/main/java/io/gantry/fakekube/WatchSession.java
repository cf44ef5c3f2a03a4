package io.gantry.fakekube;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
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
      beginStream(exchange);
      write(exchange.getResponseBody(), "ERROR", e.status().toJson());
      return false;
    }
    onStart.run();
    try {
      OutputStream out = beginStream(exchange);
      for (StoreEvent event : start.initial()) {
        Optional<Change> change = translate(event);
        if (change.isPresent()) {
          write(out, change.get().type(), change.get().object());
        }
      }
      if (params.sendInitialEvents() && params.bookmarks()) {
        write(out, bookmark(new Bookmark(start.resourceVersion(), true)));
      }
      return stream(out);
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

  private boolean stream(OutputStream out) throws IOException {
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
      Outgoing next;
      try {
        next = queue.poll(wait, TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return true;
      }
      if (next == null) {
        if (params.bookmarks() && System.nanoTime() >= nextBookmark) {
          bookmarkNow();
          nextBookmark = System.nanoTime() + interval;
        }
      } else if (next instanceof Change change) {
        write(out, change.type(), change.object());
      } else if (next instanceof Bookmark bookmark) {
        write(out, bookmark(bookmark));
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

  private String bookmark(Bookmark bookmark) {
    ObjectNode line = Json.object();
    line.put("type", "BOOKMARK");
    line.set(
        "object",
        Bookmarks.object(
            params.selection().kind(), bookmark.resourceVersion(), bookmark.initialEventsEnd()));
    return Json.write(line);
  }

  private static OutputStream beginStream(HttpExchange exchange) throws IOException {
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(200, 0);
    return exchange.getResponseBody();
  }

  private static void write(OutputStream out, String type, ObjectNode object) throws IOException {
    ObjectNode line = Json.object();
    line.put("type", type);
    line.set("object", object);
    write(out, Json.write(line));
  }

  private static void write(OutputStream out, String line) throws IOException {
    log.debug("watch event {}", line);
    out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
    out.flush();
  }
}
