package io.gantry.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gantry extender --port} on a port another process listens on exits 2 with one line naming
 * the port (it used to print a 38-line {@code BindException} trace and keep running).
 */
class ExtenderPortInUseTest {
  @TempDir Path dir;

  @Test
  void aPortInUseExitsTwoWithOneLineNamingIt() throws Exception {
    try (ServerSocket taken = new ServerSocket()) {
      taken.bind(new InetSocketAddress(0));
      int port = taken.getLocalPort();

      ChildJvm run =
          ChildJvm.run(
              dir,
              "extender",
              "--scenario",
              "../../examples/quickstart.yaml",
              "--port",
              String.valueOf(port));

      assertThat(run.exitCode()).as(String.join("\n", run.err())).isEqualTo(2);
      assertThat(run.err())
          .containsExactly(
              "error: cannot listen on port "
                  + port
                  + ": address already in use (another process holds it; choose another with"
                  + " --port)");
      assertThat(run.out()).isEmpty();
    }
  }
}
