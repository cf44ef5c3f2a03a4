package io.gantry.extender;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExtenderTlsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  @TempDir Path dir;
  private Path certFile;
  private Path keyFile;
  private Scenarios.Served served;
  private ExtenderServer server;

  @BeforeEach
  void start() throws Exception {
    certFile = dir.resolve("tls.crt");
    keyFile = dir.resolve("tls.key");
    install("a");
    served =
        Scenarios.serve(
            Scenarios.cluster(3, 4, ExtenderServerTest.GANG),
            ExtenderSettings.DEFAULTS,
            new TestClock(Instant.parse("2026-01-01T00:00:00Z")));
    server = start(new TlsSettings(certFile, keyFile, Duration.ofMillis(50)));
  }

  @AfterEach
  void stop() {
    server.close();
    served.extender().close();
  }

  private ExtenderServer start(TlsSettings tls) throws InterruptedException {
    return ExtenderServer.start(
        served.extender(),
        AdmissionWebhook.defaults(served.cluster()),
        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
        Optional.of(tls));
  }

  @Test
  void aClientTrustingTheCertificateGetsAFilterAnswerOverHttps() throws Exception {
    HttpClient client = HttpClient.newBuilder().sslContext(trusting("a")).build();
    HttpResponse<String> r =
        client.send(
            HttpRequest.newBuilder(
                    URI.create("https://localhost:" + server.port() + "/gantry/filter"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(ExtenderServerTest.FILTER))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    JsonNode answer = JSON.readTree(r.body());
    assertThat(answer.get("NodeNames")).hasSize(1);
    assertThat(answer.get("FailedAndUnresolvableNodes").size()).isZero();
    assertThat(answer.get("Error").asText()).isEmpty();
  }

  @Test
  void newConnectionsPresentAReplacedCertificate() throws Exception {
    assertThat(peerCertificate()).isEqualTo(certificate("a.crt"));
    install("b");
    await()
        .atMost(Duration.ofSeconds(20))
        .untilAsserted(() -> assertThat(peerCertificate()).isEqualTo(certificate("b.crt")));
    assertThat(served.extender().metrics().tlsReloadFailureCount()).isZero();
  }

  @Test
  void aBrokenReplacementKeepsTheOldCertificate() throws Exception {
    Files.writeString(certFile, "-----BEGIN CERTIFICATE-----\nbroken\n-----END CERTIFICATE-----\n");
    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> served.extender().metrics().tlsReloadFailureCount() >= 1);
    assertThat(peerCertificate()).isEqualTo(certificate("a.crt"));
    assertThat(served.extender().metrics().scrape())
        .contains("gantry_extender_tls_reload_failures_total 1.0");
  }

  @Test
  void aCertificateReplacedBeforeItsKeyIsNotServedUntilTheKeyFollows() throws Exception {
    overwrite("tls/b.crt", certFile);
    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> served.extender().metrics().tlsReloadFailureCount() >= 1);
    assertThat(peerCertificate()).isEqualTo(certificate("a.crt"));
    overwrite("tls/b.key", keyFile);
    await()
        .atMost(Duration.ofSeconds(20))
        .untilAsserted(() -> assertThat(peerCertificate()).isEqualTo(certificate("b.crt")));
  }

  @Test
  void aKeyOfAnotherCertificateFailsStartUpNamingBothFiles() throws Exception {
    Path otherKey = dir.resolve("other.key");
    copy("tls/b.key", otherKey);
    assertThatThrownBy(() -> start(new TlsSettings(certFile, otherKey, Duration.ofSeconds(10))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(
            "TLS key " + otherKey + " does not belong to certificate " + certFile);
  }

  @Test
  void plainHttpToTheTlsPortGetsNoHttpAnswer() throws Exception {
    RawHttp.Answer a;
    try {
      a = RawHttp.send(server.port(), RawHttp.post("/gantry/filter", ExtenderServerTest.FILTER));
    } catch (IOException e) {
      // the server may reset the connection instead of closing it: no answer either way
      return;
    }
    assertThat(a.status()).as("status line of %s", a.body()).isEqualTo(-1);
  }

  @Test
  void anInvalidKeyFailsStartUpNamingTheFile() throws Exception {
    Path badKey = dir.resolve("bad.key");
    Files.writeString(badKey, "not a key\n");
    assertThatThrownBy(() -> start(new TlsSettings(certFile, badKey, Duration.ofSeconds(10))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(badKey.toString());
  }

  @Test
  void aMissingCertificateFailsStartUpNamingTheFile() {
    Path missing = dir.resolve("missing.crt");
    assertThatThrownBy(() -> start(new TlsSettings(missing, keyFile, Duration.ofSeconds(10))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cannot read " + missing);
  }

  /**
   * Replaces the served pair with pair {@code name} the way the kubelet updates a mounted secret:
   * both files are written into a fresh folder and one symbolic link swap makes them current, so a
   * reader never sees the certificate of one pair with the key of another.
   */
  private void install(String name) throws IOException {
    Path version = Files.createTempDirectory(dir, ".." + name);
    copy("tls/" + name + ".crt", version.resolve("tls.crt"));
    copy("tls/" + name + ".key", version.resolve("tls.key"));
    Path staged = dir.resolve("..data_tmp");
    Files.deleteIfExists(staged);
    Files.createSymbolicLink(staged, version.getFileName());
    Files.move(staged, dir.resolve("..data"), StandardCopyOption.ATOMIC_MOVE);
    if (!Files.exists(certFile, LinkOption.NOFOLLOW_LINKS)) {
      Files.createSymbolicLink(certFile, Path.of("..data", "tls.crt"));
      Files.createSymbolicLink(keyFile, Path.of("..data", "tls.key"));
    }
  }

  /** Writes one file of a pair in place, as a person editing files by hand would. */
  private void overwrite(String resource, Path to) throws IOException {
    Path target = to.toRealPath();
    copy(resource, target);
  }

  private void copy(String resource, Path to) throws IOException {
    Path staged = Files.createTempFile(dir, "staged", ".pem");
    try (InputStream in = resource(resource)) {
      Files.copy(in, staged, StandardCopyOption.REPLACE_EXISTING);
    }
    Files.move(staged, to, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  /** The certificate the server presents to a new connection (trusting both test pairs). */
  private X509Certificate peerCertificate() throws Exception {
    try (SSLSocket s =
        (SSLSocket)
            trusting("a", "b")
                .getSocketFactory()
                .createSocket(InetAddress.getLoopbackAddress(), server.port())) {
      s.setSoTimeout(10_000);
      s.startHandshake();
      Certificate[] chain = s.getSession().getPeerCertificates();
      return (X509Certificate) chain[0];
    }
  }

  private static SSLContext trusting(String... names) throws Exception {
    KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
    trusted.load(null, null);
    for (String name : names) {
      trusted.setCertificateEntry(name, certificate(name + ".crt"));
    }
    TrustManagerFactory tmf =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trusted);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, tmf.getTrustManagers(), null);
    return context;
  }

  private static X509Certificate certificate(String file) throws Exception {
    try (InputStream in = resource("tls/" + file)) {
      return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
    }
  }

  private static InputStream resource(String name) throws IOException {
    InputStream in = ExtenderTlsTest.class.getClassLoader().getResourceAsStream(name);
    if (in == null) {
      throw new IOException("test resource " + name + " is missing");
    }
    return in;
  }
}
