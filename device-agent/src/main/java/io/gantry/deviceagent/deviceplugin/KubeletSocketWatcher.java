package io.gantry.deviceagent.deviceplugin;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches the device plugin directory (inotify, through the JDK's watch service) and calls back
 * whenever {@code kubelet.sock} is created: the kubelet restarted, cleaned the directory and serves
 * registration again, so plugins must serve again and re-register (NVIDIA's plugin does the same on
 * fsnotify's Create). An overflow of events is taken as a creation too, since one may be among the
 * lost events. Runs on its own daemon thread until closed.
 */
final class KubeletSocketWatcher implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(KubeletSocketWatcher.class);

  private final WatchService watchService;
  private final Thread thread;

  private KubeletSocketWatcher(WatchService watchService, Thread thread) {
    this.watchService = watchService;
    this.thread = thread;
  }

  /** Starts watching {@code kubeletSocket}'s directory. */
  static KubeletSocketWatcher start(Path kubeletSocket, Runnable onCreated) throws IOException {
    requireNonNull(onCreated, "onCreated is null");
    Path directory = kubeletSocket.toAbsolutePath().getParent();
    Path name = kubeletSocket.getFileName();
    WatchService service = FileSystems.getDefault().newWatchService();
    directory.register(
        service, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.OVERFLOW);
    Thread thread = new Thread(() -> loop(service, name, onCreated), "kubelet-socket-watcher");
    thread.setDaemon(true);
    thread.start();
    return new KubeletSocketWatcher(service, thread);
  }

  private static void loop(WatchService service, Path name, Runnable onCreated) {
    try {
      while (true) {
        WatchKey key = service.take();
        boolean created = false;
        for (WatchEvent<?> event : key.pollEvents()) {
          created |=
              event.kind() == StandardWatchEventKinds.OVERFLOW || name.equals(event.context());
        }
        key.reset();
        if (created) {
          log.info("{} was created: the kubelet restarted", name);
          try {
            onCreated.run();
          } catch (RuntimeException e) {
            log.error("re-registering after a kubelet restart failed", e);
          }
        }
      }
    } catch (InterruptedException | ClosedWatchServiceException e) {
      // closed: stop watching
    }
  }

  @Override
  public void close() {
    try {
      watchService.close();
    } catch (IOException e) {
      log.debug("closing the watch service", e);
    }
    thread.interrupt();
  }
}
