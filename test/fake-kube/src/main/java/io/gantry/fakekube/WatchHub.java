package io.gantry.fakekube;

import java.util.ArrayList;
import java.util.List;

/** The open watches, for the test hooks that reach all of them at once. Thread-safe. */
final class WatchHub {
  private final List<WatchSession> open = new ArrayList<>();

  synchronized void add(WatchSession session) {
    open.add(session);
  }

  synchronized void remove(WatchSession session) {
    open.remove(session);
  }

  synchronized int size() {
    return open.size();
  }

  /** Ends every open watch; abruptly drops the connections, otherwise finishes the streams. */
  synchronized int endAll(boolean abrupt) {
    List<WatchSession> ended = new ArrayList<>(open);
    ended.forEach(s -> s.end(abrupt));
    open.clear();
    return ended.size();
  }

  synchronized int bookmarkAll() {
    open.forEach(WatchSession::bookmarkNow);
    return open.size();
  }
}
