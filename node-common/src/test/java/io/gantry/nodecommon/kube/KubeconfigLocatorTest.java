package io.gantry.nodecommon.kube;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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

    assertThat(locator.locate(Optional.of(given)).files()).containsExactly(given);
  }

  @Test
  void theExistingFilesOfTheKubeconfigVariableComeNextInTheirOrder() throws IOException {
    String second = write("second");
    String third = write("third");
    String listed =
        home.resolve("missing") + File.pathSeparator + second + File.pathSeparator + third;
    write(".kube/config");

    assertThat(
            new KubeconfigLocator(Map.of("KUBECONFIG", listed), home)
                .locate(Optional.empty())
                .files())
        .containsExactly(Path.of(second), Path.of(third));
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
                .files())
        .containsExactly(Path.of(config));
  }

  @Test
  void inAPodTheServiceAccountIsUsed() throws IOException {
    assertThat(
            new KubeconfigLocator(Map.of("KUBERNETES_SERVICE_HOST", "10.0.0.1"), home)
                .locate(Optional.empty())
                .files())
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

    assertThatThrownBy(
            () -> ApiClients.connect(KubeconfigLocator.Location.of(file), ClusterAccess.defaults()))
        .isInstanceOf(IOException.class)
        .hasMessage(file + ": not a kubeconfig (YAML with clusters, users, contexts)");
  }

  @Test
  void yamlWithoutAServerIsNotAKubeconfig() throws IOException {
    Path file = home.resolve("list.yaml");
    Files.writeString(file, "- a\n- b\n", UTF_8);

    assertThatThrownBy(
            () -> ApiClients.connect(KubeconfigLocator.Location.of(file), ClusterAccess.defaults()))
        .isInstanceOf(IOException.class)
        .hasMessageStartingWith(file + ": not a kubeconfig");
  }

  @Test
  void aMissingFileIsNamed() {
    Path file = home.resolve("nope");

    assertThatThrownBy(
            () -> ApiClients.connect(KubeconfigLocator.Location.of(file), ClusterAccess.defaults()))
        .isInstanceOf(IOException.class)
        .hasMessage(file + ": no such file");
  }

  @Test
  void aKubeconfigFoundThroughTheVariableConnectsToItsServer() throws IOException {
    String file = write("cfg");

    assertThat(
            ApiClients.connect(
                    new KubeconfigLocator(Map.of("KUBECONFIG", file), home)
                        .locate(Optional.empty()),
                    ClusterAccess.defaults())
                .getBasePath())
        .isEqualTo("https://127.0.0.1:6443");
  }

  @Test
  void severalFilesMergeAsKubectlMergesThem() throws IOException {
    // the first file sets the current context and wins for the cluster both name; the second
    // adds the user and a context of its own
    String first =
        write(
            "first",
            """
            clusters: [{name: c, cluster: {server: "https://first:6443"}}]
            contexts: [{name: x, context: {cluster: c, user: u}}]
            current-context: x
            """);
    String second =
        write(
            "second",
            """
            clusters:
            - {name: c, cluster: {server: "https://second:6443"}}
            - {name: d, cluster: {server: "https://other:6443"}}
            users: [{name: u, user: {token: t}}]
            contexts: [{name: y, context: {cluster: d, user: u}}]
            current-context: y
            """);
    KubeconfigLocator.Location both =
        new KubeconfigLocator(Map.of("KUBECONFIG", first + File.pathSeparator + second), home)
            .locate(Optional.empty());

    assertThat(ApiClients.connect(both, ClusterAccess.defaults()).getBasePath())
        .isEqualTo("https://first:6443");
    assertThat(
            ApiClients.connect(both, new ClusterAccess(Optional.empty(), Optional.of("y")))
                .getBasePath())
        .isEqualTo("https://other:6443");
  }

  @Test
  void anUnknownContextIsNamedWithTheOnesThereAre() throws IOException {
    Path file = Path.of(write("cfg"));

    assertThatThrownBy(
            () ->
                ApiClients.connect(
                    KubeconfigLocator.Location.of(file),
                    new ClusterAccess(Optional.empty(), Optional.of("prod"))))
        .isInstanceOf(IOException.class)
        .hasMessage(file + ": no context named 'prod' (contexts: [x])");
  }

  @Test
  void aRelativeCertificateIsReadNextToTheFileThatNamesIt() throws IOException {
    Path dir = Files.createDirectories(home.resolve("certs"));
    String file =
        write(
            "certs/cfg",
            """
            clusters: [{name: c, cluster: {server: "https://h:6443", certificate-authority: ca.crt}}]
            users: [{name: u, user: {token: t}}]
            contexts: [{name: x, context: {cluster: c, user: u}}]
            current-context: x
            """);

    assertThat(
            KubeconfigFiles.load(List.of(Path.of(file)), Optional.empty())
                .getCertificateAuthorityFile())
        .isEqualTo(dir.resolve("ca.crt").toString());
  }

  private String write(String name) throws IOException {
    return write(name, KUBECONFIG);
  }

  private String write(String name, String content) throws IOException {
    Path file = home.resolve(name);
    Files.createDirectories(file.getParent());
    Files.writeString(file, content, UTF_8);
    return file.toString();
  }
}
