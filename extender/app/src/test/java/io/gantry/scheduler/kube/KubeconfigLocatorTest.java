package io.gantry.scheduler.kube;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** kubectl's order of configurations, and the one-line errors when none is usable. */
class KubeconfigLocatorTest {
  private static final String KUBECONFIG =
      """
      apiVersion: v1
      kind: Config
      clusters: [{name: c, cluster: {server: "https://127.0.0.1:6443"}}]
      users: [{name: u, user: {token: t}}]
      contexts: [{name: x, context: {cluster: c, user: u}}]
      current-context: x
      """;

  @TempDir Path home;

  @Test
  void anExplicitFileWinsOverEverything() throws IOException {
    Path given = home.resolve("given");
    KubeconfigLocator locator =
        new KubeconfigLocator(
            Map.of("KUBECONFIG", write("env"), "KUBERNETES_SERVICE_HOST", "h"), home);

    assertThat(locator.locate(Optional.of(given)).file()).contains(given);
  }

  @Test
  void theFirstExistingFileOfTheKubeconfigVariableComesNext() throws IOException {
    String second = write("second");
    String listed = home.resolve("missing") + File.pathSeparator + second;
    write(".kube/config");

    assertThat(
            new KubeconfigLocator(Map.of("KUBECONFIG", listed), home)
                .locate(Optional.empty())
                .file())
        .contains(Path.of(second));
  }

  @Test
  void aKubeconfigVariableThatListsNoExistingFileIsAnError() {
    String listed = home.resolve("a") + File.pathSeparator + home.resolve("b");

    assertThatThrownBy(
            () ->
                new KubeconfigLocator(Map.of("KUBECONFIG", listed), home).locate(Optional.empty()))
        .isInstanceOf(IOException.class)
        .hasMessage("$KUBECONFIG lists no file that exists: " + listed);
  }

  @Test
  void theUsersConfigComesBeforeTheServiceAccount() throws IOException {
    String config = write(".kube/config");

    assertThat(
            new KubeconfigLocator(Map.of("KUBERNETES_SERVICE_HOST", "10.0.0.1"), home)
                .locate(Optional.empty())
                .file())
        .contains(Path.of(config));
  }

  @Test
  void inAPodTheServiceAccountIsUsed() throws IOException {
    assertThat(
            new KubeconfigLocator(Map.of("KUBERNETES_SERVICE_HOST", "10.0.0.1"), home)
                .locate(Optional.empty())
                .file())
        .isEmpty();
  }

  @Test
  void withNothingToUseTheErrorNamesEverythingTriedInOneLine() {
    assertThatThrownBy(() -> new KubeconfigLocator(Map.of(), home).locate(Optional.empty()))
        .isInstanceOf(IOException.class)
        .hasMessage(
            "no cluster configuration found: no --kubeconfig, $KUBECONFIG is not set, "
                + home.resolve(".kube").resolve("config")
                + " does not exist, and $KUBERNETES_SERVICE_HOST is not set (not in a pod)");
  }

  @Test
  void aFileThatIsNotYamlIsNamedInOneLine() throws IOException {
    Path file = home.resolve("random");
    Files.write(file, new byte[] {'{', ':', 0x01, '[', '"', '\n', ']', ':', ':'});

    assertThatThrownBy(() -> KubeClients.connect(new KubeconfigLocator.Location(Optional.of(file))))
        .isInstanceOf(IOException.class)
        .hasMessage(file + ": not a kubeconfig (YAML with clusters, users, contexts)");
  }

  @Test
  void yamlWithoutAServerIsNotAKubeconfig() throws IOException {
    Path file = home.resolve("list.yaml");
    Files.writeString(file, "- a\n- b\n", UTF_8);

    assertThatThrownBy(() -> KubeClients.connect(new KubeconfigLocator.Location(Optional.of(file))))
        .isInstanceOf(IOException.class)
        .hasMessageStartingWith(file + ": not a kubeconfig");
  }

  @Test
  void aMissingFileIsNamed() {
    Path file = home.resolve("nope");

    assertThatThrownBy(() -> KubeClients.connect(new KubeconfigLocator.Location(Optional.of(file))))
        .isInstanceOf(IOException.class)
        .hasMessage(file + ": no such file");
  }

  @Test
  void aKubeconfigFoundThroughTheVariableConnectsToItsServer() throws IOException {
    String file = write("cfg");

    assertThat(
            KubeClients.connect(
                    new KubeconfigLocator(Map.of("KUBECONFIG", file), home)
                        .locate(Optional.empty()))
                .getBasePath())
        .isEqualTo("https://127.0.0.1:6443");
  }

  private String write(String name) throws IOException {
    Path file = home.resolve(name);
    Files.createDirectories(file.getParent());
    Files.writeString(file, KUBECONFIG, UTF_8);
    return file.toString();
  }
}
