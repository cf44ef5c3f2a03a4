package io.gantry.extender;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The benchmark's caller against the real server, and against answers it must refuse. */
class KeepAliveCallerTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final byte[] NAMES =
      "[\"node-0\",\"node-1\",\"node-2\"]".getBytes(StandardCharsets.UTF_8);

  private Scenarios.Served served;
  private ExtenderServer server;
  private KeepAliveCaller caller;

  @BeforeEach
  void start() throws Exception {
    served =
        Scenarios.serve(
            Scenarios.cluster(3, 4, ExtenderServerTest.GANG),
            ExtenderSettings.DEFAULTS,
            new TestClock(Instant.parse("2026-01-01T00:00:00Z")));
    server =
        ExtenderServer.start(
            served.extender(),
            AdmissionWebhook.defaults(served.cluster()),
            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    caller =
        new KeepAliveCaller(new InetSocketAddress(InetAddress.getLoopbackAddress(), server.port()));
  }

  @AfterEach
  void stop() throws IOException {
    caller.close();
    server.close();
    served.extender().close();
  }

  private static KeepAliveCaller.Post post(String verb, String pod) {
    return KeepAliveCaller.Post.json(
        "/gantry/" + verb,
        "{\"Pod\":{\"metadata\":{\"namespace\":\"default\",\"name\":\""
            + pod
            + "\"}},"
            + "\"Nodes\":null,\"NodeNames\":",
        NAMES,
        "}");
  }

  @Test
  void readsEachAnswerTheServerSendsOnOneConnection() throws Exception {
    int length = caller.call(post("filter", "gang-worker-0"));
    String filter = caller.body();
    assertThat(filter.getBytes(StandardCharsets.UTF_8)).hasSize(length);
    JsonNode passing = JSON.readTree(filter).get("NodeNames");
    assertThat(passing).hasSize(1);
    String planned = passing.get(0).asText();
    assertThat(planned).isIn("node-0", "node-1", "node-2");

    caller.call(post("prioritize", "gang-worker-0"));
    assertThat(JSON.readTree(caller.body()))
        .isEqualTo(JSON.readTree("[{\"Host\":\"" + planned + "\",\"Score\":10}]"));

    caller.call(post("filter", "not-gantrys"));
    assertThat(JSON.readTree(caller.body()).get("NodeNames")).isEqualTo(JSON.readTree(NAMES));
  }

  @Test
  void anErrorAnswerIsAnExceptionWithItsStatusAndBodyAndTheNextCallReconnects() throws Exception {
    KeepAliveCaller.Post mistyped =
        KeepAliveCaller.Post.json("/gantry/filter", "{\"Pod\":42,\"NodeNames\":", NAMES, "}");
    assertThatThrownBy(() -> caller.call(mistyped))
        .isInstanceOf(IOException.class)
        .hasMessage("POST /gantry/filter answered 400: {\"Error\":\"Pod: expected a Pod object\"}");

    // the server closed that connection after its error: the next call opens another
    caller.call(post("filter", "not-gantrys"));
    assertThat(JSON.readTree(caller.body()).get("NodeNames")).hasSize(3);

    KeepAliveCaller.Post noVerb = KeepAliveCaller.Post.json("/gantry/nothing", "", NAMES, "");
    assertThatThrownBy(() -> caller.call(noVerb))
        .isInstanceOf(IOException.class)
        .hasMessageStartingWith("POST /gantry/nothing answered 404: {\"Error\":\"no such verb");
  }

  @Test
  void aChunkedAnswerIsRefusedNamingTheHeader() throws Exception {
    String chunked = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n[]\r\n0\r\n\r\n";
    assertThatThrownBy(() -> callOnce(chunked))
        .isInstanceOf(IOException.class)
        .hasMessage(
            "POST /gantry/filter: the answer has Transfer-Encoding: chunked; this caller reads"
                + " Content-Length bodies only");
  }

  @Test
  void anAnswerWithoutContentLengthOrCutShortIsRefused() throws Exception {
    assertThatThrownBy(() -> callOnce("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n[]"))
        .isInstanceOf(IOException.class)
        .hasMessage("POST /gantry/filter: the answer has no Content-Length header");
    assertThatThrownBy(() -> callOnce("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n[]"))
        .isInstanceOf(IOException.class)
        .hasMessage(
            "POST /gantry/filter: the server closed the connection after 41 bytes of its answer");
  }

  /** Calls a one-shot server that reads the request and writes {@code answer}, then closes. */
  private static void callOnce(String answer) throws Exception {
    ExecutorService thread = Executors.newSingleThreadExecutor();
    try (ServerSocket fake = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      KeepAliveCaller c =
          new KeepAliveCaller(
              new InetSocketAddress(InetAddress.getLoopbackAddress(), fake.getLocalPort()));
      Future<?> served =
          thread.submit(
              () -> {
                try (Socket s = fake.accept()) {
                  InputStream in = s.getInputStream();
                  // answers once the request has begun to arrive, then reads until the caller
                  // closes, so that closing sends no reset that would hide the answer
                  byte[] first = in.readNBytes(1);
                  OutputStream out = s.getOutputStream();
                  out.write(answer.getBytes(StandardCharsets.US_ASCII));
                  out.flush();
                  s.shutdownOutput();
                  in.readAllBytes();
                  return first.length;
                }
              });
      try {
        c.call(post("filter", "p"));
      } finally {
        // the one-shot server reads until the caller closes: close before waiting for it
        c.close();
        served.get();
      }
    } finally {
      thread.shutdownNow();
    }
  }
}
