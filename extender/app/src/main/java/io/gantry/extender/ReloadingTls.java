package io.gantry.extender;

import static java.util.Objects.requireNonNull;

import com.google.common.hash.HashCode;
import com.google.common.hash.Hasher;
import com.google.common.hash.Hashing;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's TLS context, rebuilt when its certificate or key file changes: every check interval
 * both files are read and hashed; a changed pair that builds and whose key signs for its
 * certificate replaces the context for new connections, a pair that does not is logged, counted and
 * ignored, so the old certificate keeps serving until a good pair arrives.
 */
final class ReloadingTls implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ReloadingTls.class);

  private final TlsSettings settings;
  private final ExtenderMetrics metrics;
  private final ScheduledExecutorService checker;

  /** Written by the checker thread, read by event loops as connections open. */
  private volatile SslContext current;

  /** The content last tried, good or bad, so one bad pair is reported once. */
  private HashCode lastSeen;

  private ReloadingTls(TlsSettings settings, ExtenderMetrics metrics, Pair first) {
    this.settings = settings;
    this.metrics = metrics;
    this.current = first.context();
    this.lastSeen = first.hash();
    this.checker =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "gantry-extender-tls-reload");
              t.setDaemon(true);
              return t;
            });
    long intervalMillis = settings.checkInterval().toMillis();
    var unused =
        checker.scheduleWithFixedDelay(
            this::check, intervalMillis, intervalMillis, TimeUnit.MILLISECONDS);
  }

  /**
   * Loads the pair and starts watching it.
   *
   * @throws IllegalArgumentException naming the file when a file cannot be read or the pair is not
   *     a valid certificate chain and private key
   */
  static ReloadingTls start(TlsSettings settings, ExtenderMetrics metrics) {
    requireNonNull(settings, "settings is null");
    requireNonNull(metrics, "metrics is null");
    return new ReloadingTls(settings, metrics, load(settings));
  }

  SslContext current() {
    return current;
  }

  private void check() {
    try {
      byte[] cert = read(settings.certFile());
      byte[] key = read(settings.keyFile());
      HashCode hash = hash(cert, key);
      if (hash.equals(lastSeen)) {
        return;
      }
      lastSeen = hash;
      current = build(cert, key, settings);
      LOG.info("TLS certificate reloaded from {}", settings.certFile());
    } catch (IllegalArgumentException e) {
      // a half-written, broken or mismatched pair (certificate replaced before its key): keep
      // serving the old one; the next change is tried again
      metrics.tlsReloadFailed();
      LOG.warn("TLS certificate not reloaded, still serving the previous one: {}", e.getMessage());
    }
  }

  private static Pair load(TlsSettings settings) {
    byte[] cert = read(settings.certFile());
    byte[] key = read(settings.keyFile());
    return new Pair(build(cert, key, settings), hash(cert, key));
  }

  private static byte[] read(Path file) {
    try {
      return Files.readAllBytes(file);
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read " + file + ": " + e, e);
    }
  }

  /** Builds from the bytes just hashed, so the context and the hash describe the same content. */
  private static SslContext build(byte[] cert, byte[] key, TlsSettings settings) {
    SslContext context;
    try {
      context =
          SslContextBuilder.forServer(new ByteArrayInputStream(cert), new ByteArrayInputStream(key))
              .build();
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException(
          "invalid TLS certificate "
              + settings.certFile()
              + " or key "
              + settings.keyFile()
              + ": "
              + e.getMessage(),
          e);
    }
    try {
      TlsPairCheck.verify(context);
    } catch (SSLException e) {
      throw new IllegalArgumentException(
          "TLS key "
              + settings.keyFile()
              + " does not belong to certificate "
              + settings.certFile()
              + " (a test handshake failed: "
              + e.getMessage()
              + ")",
          e);
    }
    return context;
  }

  private static HashCode hash(byte[] cert, byte[] key) {
    Hasher h = Hashing.sha256().newHasher();
    h.putInt(cert.length).putBytes(cert).putBytes(key);
    return h.hash();
  }

  @Override
  public void close() {
    checker.shutdownNow();
  }

  private record Pair(SslContext context, HashCode hash) {}
}
