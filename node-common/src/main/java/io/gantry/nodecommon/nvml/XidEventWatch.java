package io.gantry.nodecommon.nvml;

import static java.util.Objects.requireNonNull;

import io.gantry.nodecommon.nvml.Nvml.DeviceHandle;
import io.gantry.nodecommon.nvml.Nvml.EventData;
import io.gantry.nodecommon.nvml.Nvml.EventSetHandle;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches NVML for XID errors on a thread of its own: one event set (nvmlEventSetCreate) with every
 * GPU registered for nvmlEventTypeXidCriticalError (a GPU that does not support it is logged and
 * left to discovery), waited on with nvmlEventSetWait_v2. Every XID of a registered GPU goes to the
 * observer (the agent counts them); a critical XID ({@link CriticalXids}) also goes to the sink,
 * and application XIDs are logged. {@link #close()} stops the thread and frees the event set. NVML
 * must stay initialised until then.
 */
public final class XidEventWatch implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(XidEventWatch.class);

  /** How long one wait blocks: also how long {@link #close()} may take. */
  static final int WAIT_MILLIS = 1000;

  private record Gpu(int index, String uuid) {}

  private final Nvml nvml;
  private final EventSetHandle set;
  private final Map<Long, Gpu> gpusByHandle;
  private final Consumer<XidError> observer;
  private final Consumer<XidError> sink;
  private final Thread thread;
  private volatile boolean running = true;

  private XidEventWatch(
      Nvml nvml,
      EventSetHandle set,
      Map<Long, Gpu> gpusByHandle,
      Consumer<XidError> observer,
      Consumer<XidError> sink) {
    this.nvml = nvml;
    this.set = set;
    this.gpusByHandle = gpusByHandle;
    this.observer = observer;
    this.sink = sink;
    this.thread = new Thread(this::run, "nvml-xid-events");
    this.thread.setDaemon(true);
  }

  /**
   * Registers every GPU and starts watching: {@code observer} hears every XID, {@code sink} the
   * critical ones.
   *
   * @throws NvmlException when the event set cannot be created or a GPU cannot be registered for a
   *     reason other than not supporting XID events
   */
  public static XidEventWatch start(Nvml nvml, Consumer<XidError> observer, Consumer<XidError> sink)
      throws NvmlException {
    requireNonNull(nvml, "nvml is null");
    requireNonNull(observer, "observer is null");
    requireNonNull(sink, "sink is null");
    EventSetHandle set = nvml.eventSetCreate();
    Map<Long, Gpu> gpus = new TreeMap<>();
    try {
      int count = nvml.deviceGetCount();
      for (int index = 0; index < count; index++) {
        DeviceHandle device = nvml.deviceGetHandleByIndex(index);
        String uuid = nvml.deviceGetUuid(device);
        try {
          nvml.deviceRegisterEvents(device, Nvml.EVENT_TYPE_XID_CRITICAL_ERROR, set);
          gpus.put(device.address(), new Gpu(index, uuid));
        } catch (NvmlException e) {
          if (!e.is(Nvml.ERROR_NOT_SUPPORTED)) {
            throw e;
          }
          log.warn("GPU {} does not report XID events; its health comes from discovery only", uuid);
        }
      }
    } catch (NvmlException e) {
      nvml.eventSetFree(set);
      throw e;
    }
    XidEventWatch watch = new XidEventWatch(nvml, set, gpus, observer, sink);
    watch.thread.start();
    log.info("watching {} GPUs for XID errors", gpus.size());
    return watch;
  }

  private void run() {
    while (running) {
      Optional<EventData> event;
      try {
        event = nvml.eventSetWait(set, WAIT_MILLIS);
      } catch (NvmlException e) {
        log.warn("waiting for XID events failed, retrying: {}", e.getMessage());
        pause();
        continue;
      }
      event.ifPresent(this::handle);
    }
  }

  private void handle(EventData event) {
    if ((event.eventType() & Nvml.EVENT_TYPE_XID_CRITICAL_ERROR) == 0) {
      return;
    }
    Gpu gpu = gpusByHandle.get(event.device().address());
    if (gpu == null) {
      log.warn("XID {} on a device this agent did not register", event.eventData());
      return;
    }
    XidError error = new XidError(gpu.uuid(), gpu.index(), event.eventData());
    try {
      observer.accept(error);
      if (!CriticalXids.isCritical(error.xid())) {
        log.info(
            "GPU {} reported XID {}, an application error: the GPU stays healthy",
            gpu.uuid(),
            error.xid());
        return;
      }
      sink.accept(error);
    } catch (RuntimeException e) {
      log.error("handling XID {} on GPU {} failed", event.eventData(), gpu.uuid(), e);
    }
  }

  /** Keeps a failing wait from spinning. */
  private void pause() {
    try {
      Thread.sleep(WAIT_MILLIS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      running = false;
    }
  }

  @Override
  public void close() {
    running = false;
    try {
      thread.join(3L * WAIT_MILLIS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try {
      nvml.eventSetFree(set);
    } catch (NvmlException e) {
      log.warn("freeing the XID event set failed: {}", e.getMessage());
    }
  }
}
