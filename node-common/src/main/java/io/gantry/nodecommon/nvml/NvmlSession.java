package io.gantry.nodecommon.nvml;

import static java.util.Objects.requireNonNull;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * NVML between nvmlInit_v2 and nvmlShutdown: {@link #open} initialises it, {@link #close()} shuts
 * it down. Handles from {@link #nvml()} are valid until then.
 */
public final class NvmlSession implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(NvmlSession.class);

  /** Loads an NVML binding (the real one: {@link JnaNvml#load()}). */
  @FunctionalInterface
  public interface Loader {
    Nvml load() throws NvmlException;
  }

  private final Nvml nvml;

  private NvmlSession(Nvml nvml) {
    this.nvml = requireNonNull(nvml, "nvml is null");
  }

  /**
   * Loads NVML and initialises it.
   *
   * @throws NvmlException when the library is missing or nvmlInit_v2 fails (no driver loaded, say)
   */
  public static NvmlSession open(Loader loader) throws NvmlException {
    Nvml nvml = loader.load();
    nvml.init();
    return new NvmlSession(nvml);
  }

  public Nvml nvml() {
    return nvml;
  }

  @Override
  public void close() {
    try {
      nvml.shutdown();
    } catch (NvmlException e) {
      log.warn("NVML did not shut down cleanly: {}", e.getMessage());
    }
  }
}
