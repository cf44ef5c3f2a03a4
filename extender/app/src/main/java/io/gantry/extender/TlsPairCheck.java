package io.gantry.extender;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import java.nio.ByteBuffer;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;

/**
 * Proves that a server context's private key belongs to its certificate by running one TLS
 * handshake in memory against it.
 *
 * <p>Building a context does not compare the two: a certificate replaced before its key (or a
 * secret mounted half-updated) builds fine and then fails every client handshake with "Invalid
 * CertificateVerify signature". A handshake is the one check that holds for every key type and PEM
 * form the context builder accepts. The client trusts any certificate because trust is the callers'
 * business; only the key-to-certificate match is tested here.
 */
final class TlsPairCheck {
  /** A TLS 1.3 or 1.2 handshake takes a few dozen wrap/unwrap steps per side at most. */
  private static final int MAX_STEPS = 256;

  private TlsPairCheck() {}

  /**
   * @throws SSLException when the handshake fails, which for a context that built means the key
   *     does not match the certificate
   */
  static void verify(SslContext server) throws SSLException {
    SslContext client =
        SslContextBuilder.forClient().trustManager(InsecureTrustManagerFactory.INSTANCE).build();
    SSLEngine serverEngine = server.newEngine(ByteBufAllocator.DEFAULT);
    SSLEngine clientEngine = client.newEngine(ByteBufAllocator.DEFAULT, "gantry-pair-check", 443);
    try {
      handshake(clientEngine, serverEngine);
    } finally {
      clientEngine.closeOutbound();
      serverEngine.closeOutbound();
    }
  }

  private static void handshake(SSLEngine client, SSLEngine server) throws SSLException {
    int packet = Math.max(client.getSession().getPacketBufferSize(), 1 << 15);
    int application = Math.max(client.getSession().getApplicationBufferSize(), 1 << 15);
    ByteBuffer toServer = ByteBuffer.allocate(packet * 4);
    ByteBuffer toClient = ByteBuffer.allocate(packet * 4);
    ByteBuffer received = ByteBuffer.allocate(application);
    client.beginHandshake();
    server.beginHandshake();
    for (int i = 0; i < MAX_STEPS; i++) {
      if (finished(client) && finished(server)) {
        return;
      }
      step(client, toClient, toServer, received);
      step(server, toServer, toClient, received);
    }
    throw new SSLException("TLS handshake did not finish in " + MAX_STEPS + " steps");
  }

  private static boolean finished(SSLEngine engine) {
    HandshakeStatus status = engine.getHandshakeStatus();
    return status == HandshakeStatus.NOT_HANDSHAKING || status == HandshakeStatus.FINISHED;
  }

  /** Advances one engine by one step: reads what the peer sent, or writes what it must send. */
  private static void step(SSLEngine engine, ByteBuffer in, ByteBuffer out, ByteBuffer received)
      throws SSLException {
    switch (engine.getHandshakeStatus()) {
      case NEED_WRAP -> engine.wrap(ByteBuffer.allocate(0), out);
      case NEED_UNWRAP, NEED_UNWRAP_AGAIN -> {
        in.flip();
        engine.unwrap(in, received);
        in.compact();
        received.clear();
      }
      case NEED_TASK -> {
        Runnable task;
        while ((task = engine.getDelegatedTask()) != null) {
          task.run();
        }
      }
      case FINISHED, NOT_HANDSHAKING -> {}
    }
  }
}
