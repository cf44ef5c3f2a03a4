package io.gantry.extender;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.time.Duration;

/**
 * HTTPS for the extender: a PEM certificate chain, its PKCS#8 PEM private key, and how often both
 * files are checked for a replacement.
 */
public record TlsSettings(Path certFile, Path keyFile, Duration checkInterval) {
  /** Often enough that a renewed certificate (cert-manager, a mounted Secret) is served soon. */
  public static final Duration DEFAULT_CHECK_INTERVAL = Duration.ofSeconds(10);

  public TlsSettings {
    requireNonNull(certFile, "certFile is null");
    requireNonNull(keyFile, "keyFile is null");
    requireNonNull(checkInterval, "checkInterval is null");
    if (checkInterval.isNegative() || checkInterval.isZero()) {
      throw new IllegalArgumentException("checkInterval must be positive, got " + checkInterval);
    }
  }
}
