package io.gantry.nodecommon.kube;

import com.google.common.base.Joiner;
import com.google.common.collect.ImmutableList;
import io.kubernetes.client.util.KubeConfig;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Reads kubeconfig files into one {@link KubeConfig}, merged as kubectl merges the files of {@code
 * $KUBECONFIG}: a cluster, user or context comes from the first file that names it, and the current
 * context from the first file that sets one; {@code --context} overrides it. A relative
 * certificate, key or token file is resolved against the file that names it, as kubectl does.
 */
public final class KubeconfigFiles {
  /** The path-valued keys of a cluster and of a user that kubectl resolves per file. */
  private static final ImmutableList<String> FILE_KEYS =
      ImmutableList.of("certificate-authority", "client-certificate", "client-key", "tokenFile");

  private KubeconfigFiles() {}

  /**
   * The merged configuration of {@code files} (at least one), on {@code context} when given.
   *
   * @throws IOException in one line naming the file: missing, unreadable, not a kubeconfig; or no
   *     such context, or no server for the chosen one
   */
  public static KubeConfig load(List<Path> files, Optional<String> context) throws IOException {
    if (files.isEmpty()) {
      throw new IllegalArgumentException("no kubeconfig file to load");
    }
    TreeMap<String, Object> clusters = new TreeMap<>();
    TreeMap<String, Object> users = new TreeMap<>();
    TreeMap<String, Object> contexts = new TreeMap<>();
    String current = null;
    for (Path file : files) {
      KubeConfig one = read(file);
      merge(one.getClusters(), "cluster", file, clusters);
      merge(one.getUsers(), "user", file, users);
      merge(one.getContexts(), "context", file, contexts);
      if (current == null && one.getCurrentContext() != null) {
        current = one.getCurrentContext();
      }
    }
    String named = Joiner.on(", ").join(files);
    KubeConfig merged =
        new KubeConfig(
            new ArrayList<>(contexts.values()),
            new ArrayList<>(clusters.values()),
            new ArrayList<>(users.values()));
    String chosen = context.orElse(current);
    if (chosen == null || chosen.isEmpty()) {
      throw new IOException(named + ": not a kubeconfig: no current-context (pass --context)");
    }
    if (!merged.setContext(chosen)) {
      throw new IOException(
          named + ": no context named '" + chosen + "' (contexts: " + contexts.keySet() + ")");
    }
    if (merged.getServer() == null) {
      throw new IOException(named + ": not a kubeconfig: no server for context '" + chosen + "'");
    }
    // relative paths are already absolute; the file only matters to a persisted token refresh
    merged.setFile(files.get(0).toAbsolutePath().toFile());
    return merged;
  }

  private static KubeConfig read(Path file) throws IOException {
    try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      KubeConfig config = KubeConfig.loadKubeConfig(reader);
      if (config == null) {
        throw new IOException(file + ": not a kubeconfig (empty)");
      }
      return config;
    } catch (NoSuchFileException e) {
      throw new IOException(file + ": no such file", e);
    } catch (RuntimeException e) {
      // SnakeYAML's errors span several lines with a caret, and a YAML list is a
      // ClassCastException; the user needs the file and that it is not a kubeconfig
      throw new IOException(file + ": not a kubeconfig (YAML with clusters, users, contexts)", e);
    }
  }

  /** Adds the named entries of {@code entries} not already in {@code into}, paths made absolute. */
  private static void merge(
      List<Object> entries, String field, Path file, TreeMap<String, Object> into)
      throws IOException {
    if (entries == null) {
      return;
    }
    for (Object entry : entries) {
      if (!(entry instanceof Map<?, ?> map) || !(map.get("name") instanceof String name)) {
        throw new IOException(file + ": not a kubeconfig: a " + field + " without a name");
      }
      if (!into.containsKey(name)) {
        into.put(name, absolutePaths(map, field, file));
      }
    }
  }

  private static Map<Object, Object> absolutePaths(Map<?, ?> entry, String field, Path file) {
    Map<Object, Object> copy = new LinkedHashMap<>(entry);
    if (entry.get(field) instanceof Map<?, ?> body) {
      Map<Object, Object> resolved = new LinkedHashMap<>(body);
      Path dir = file.toAbsolutePath().getParent();
      for (String key : FILE_KEYS) {
        if (body.get(key) instanceof String value && !value.isEmpty()) {
          resolved.put(key, dir.resolve(value).toString());
        }
      }
      copy.put(field, resolved);
    }
    return copy;
  }
}
