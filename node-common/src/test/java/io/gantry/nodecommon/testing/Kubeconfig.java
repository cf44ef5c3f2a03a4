package io.gantry.nodecommon.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A kubeconfig file naming one API server without credentials, as the fake API server needs. */
public final class Kubeconfig {
  private Kubeconfig() {}

  /** Writes {@code <dir>/kubeconfig} for {@code serverUrl}; returns its path. */
  public static Path write(Path dir, String serverUrl) throws IOException {
    return Files.writeString(
        dir.resolve("kubeconfig"),
        """
        apiVersion: v1
        kind: Config
        clusters:
        - name: fake
          cluster:
            server: %s
        users:
        - name: test
          user: {}
        contexts:
        - name: fake
          context:
            cluster: fake
            user: test
        current-context: fake
        """
            .formatted(serverUrl));
  }
}
