package io.gantry.deviceagent.mps;

import static java.util.Objects.requireNonNull;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One MPS control daemon per GPU that MPS pods use. {@link #ensure} starts a GPU's daemon when the
 * first MPS allocation lands on it (from {@code Allocate}, before the container starts) and raises
 * its default limits to cover a new pod; {@link #reconcile} (every discovery round) stops daemons
 * whose GPU no MPS pod uses any more ({@code quit}), checks that the others answer on their control
 * pipe, and restarts one that died, waiting 1, 2, 4, … up to 64 s between tries on the same GPU.
 * Thread-safe.
 */
public final class MpsDaemons {
  private static final Logger log = LoggerFactory.getLogger(MpsDaemons.class);

  static final Duration FIRST_BACKOFF = Duration.ofSeconds(1);
  static final Duration MAX_BACKOFF = Duration.ofSeconds(64);

  /** A GPU's daemon: the limits it was given, and when it may next be started after a failure. */
  private static final class Daemon {
    MpsLimits limits;
    boolean running;
    Duration backoff = Duration.ZERO;
    Instant nextStart = Instant.MIN;

    Daemon(MpsLimits limits) {
      this.limits = limits;
    }
  }

  private final MpsControl control;
  private final Clock clock;
  private final SortedMap<String, Daemon> daemons = new TreeMap<>();

  public MpsDaemons(MpsControl control, Clock clock) {
    this.control = requireNonNull(control, "control is null");
    this.clock = requireNonNull(clock, "clock is null");
  }

  /** The host pipe directory MPS clients of {@code gpuUuid} mount. */
  public String pipeDirectory(String gpuUuid) {
    return control.pipeDirectory(gpuUuid).toString();
  }

  /**
   * Makes sure the GPU's daemon runs with limits at least {@code limits}: starts it (and sets its
   * limits) when it does not run, or raises its limits.
   *
   * @throws MpsException when the daemon cannot be started or configured
   */
  public synchronized void ensure(String gpuUuid, MpsLimits limits) throws MpsException {
    Daemon daemon = daemons.get(gpuUuid);
    if (daemon == null) {
      daemon = new Daemon(limits);
      daemons.put(gpuUuid, daemon);
    } else if (daemon.running && daemon.limits.max(limits).equals(daemon.limits)) {
      return;
    } else {
      daemon.limits = daemon.limits.max(limits);
    }
    if (!daemon.running) {
      start(gpuUuid, daemon);
    } else {
      control.send(gpuUuid, daemon.limits.commands());
      log.info("MPS daemon of GPU {} now has limits {}", gpuUuid, daemon.limits);
    }
  }

  /**
   * Brings the daemons in line with {@code wanted} (GPU UUID to the largest limits of its live MPS
   * pods): stops the daemons of other GPUs, restarts those that stopped answering (after their
   * backoff), starts missing ones, and sets changed limits.
   */
  public synchronized void reconcile(Map<String, MpsLimits> wanted) {
    for (String uuid : List.copyOf(daemons.keySet())) {
      if (!wanted.containsKey(uuid)) {
        stop(uuid);
      }
    }
    for (Map.Entry<String, MpsLimits> entry : new TreeMap<>(wanted).entrySet()) {
      String uuid = entry.getKey();
      Daemon daemon = daemons.computeIfAbsent(uuid, u -> new Daemon(entry.getValue()));
      boolean changed = !daemon.limits.equals(entry.getValue());
      daemon.limits = entry.getValue();
      if (daemon.running && !answers(uuid)) {
        log.warn("the MPS daemon of GPU {} stopped answering; restarting it", uuid);
        daemon.running = false;
      }
      try {
        if (!daemon.running) {
          if (clock.instant().isBefore(daemon.nextStart)) {
            continue;
          }
          start(uuid, daemon);
        } else if (changed) {
          control.send(uuid, daemon.limits.commands());
        }
      } catch (MpsException e) {
        log.error("MPS daemon of GPU {}: {}", uuid, e.getMessage());
      }
    }
  }

  /** Stops every daemon ({@code quit}): the agent is shutting down. */
  public synchronized void stopAll() {
    for (String uuid : List.copyOf(daemons.keySet())) {
      stop(uuid);
    }
  }

  /** The GPUs whose daemon runs, in UUID order. */
  public synchronized List<String> running() {
    return daemons.entrySet().stream()
        .filter(e -> e.getValue().running)
        .map(Map.Entry::getKey)
        .toList();
  }

  private void start(String uuid, Daemon daemon) throws MpsException {
    try {
      control.startDaemon(uuid);
      control.send(uuid, daemon.limits.commands());
    } catch (MpsException e) {
      daemon.backoff =
          daemon.backoff.isZero()
              ? FIRST_BACKOFF
              : min(daemon.backoff.multipliedBy(2), MAX_BACKOFF);
      daemon.nextStart = clock.instant().plus(daemon.backoff);
      throw e;
    }
    daemon.running = true;
    daemon.backoff = Duration.ZERO;
    daemon.nextStart = Instant.MIN;
    log.info("started the MPS daemon of GPU {} with limits {}", uuid, daemon.limits);
  }

  private boolean answers(String uuid) {
    try {
      control.send(uuid, List.of("get_default_active_thread_percentage"));
      return true;
    } catch (MpsException e) {
      return false;
    }
  }

  private void stop(String uuid) {
    Daemon daemon = daemons.remove(uuid);
    if (daemon == null || !daemon.running) {
      return;
    }
    try {
      control.send(uuid, List.of("quit"));
      log.info("stopped the MPS daemon of GPU {}: no MPS pod uses it", uuid);
    } catch (MpsException e) {
      log.warn("stopping the MPS daemon of GPU {} failed: {}", uuid, e.getMessage());
    }
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }
}
