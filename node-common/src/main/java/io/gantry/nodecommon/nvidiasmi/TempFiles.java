package io.gantry.nodecommon.nvidiasmi;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The temporary files the process wrappers (nvidia-smi, nvidia-cuda-mps-control) redirect to. */
public final class TempFiles {
  private static final Logger log = LoggerFactory.getLogger(TempFiles.class);

  private TempFiles() {}

  /** Deletes {@code p} when it is not null; a failure is only logged, nothing depends on it. */
  public static void deleteQuietly(Path p) {
    if (p == null) {
      return;
    }
    try {
      Files.deleteIfExists(p);
    } catch (IOException e) {
      log.debug("could not delete {}", p, e);
    }
  }
}
