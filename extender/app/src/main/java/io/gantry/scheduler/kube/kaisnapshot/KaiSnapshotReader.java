package io.gantry.scheduler.kube.kaisnapshot;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import com.google.gson.JsonParser;
import com.google.gson.stream.JsonReader;
import io.gantry.kubemodel.read.IoProblem;
import io.gantry.kubemodel.read.JacksonLimits;
import io.gantry.kubemodel.read.ScenarioException;
import io.gantry.kubemodel.read.YamlTreeReader;
import io.gantry.scheduler.kube.KubeClients;
import io.gantry.scheduler.kube.crd.KaiPodGroup;
import io.gantry.scheduler.kube.crd.KaiQueue;
import io.gantry.scheduler.kube.crd.KaiTopology;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PriorityClass;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.io.BufferedInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipInputStream;

/**
 * Reads a KAI snapshot: the ZIP that KAI's {@code /get-snapshot} serves, holding {@link
 * KaiSnapshot#ENTRY}. Bounded as a scenario file is: the archive and the JSON inflated from it at
 * most 1 GiB each (a ZIP bomb stops at the limit, whatever its entries claim), strings and keys at
 * most 256 KiB, at most {@link #MAX_ENTRIES} entries. Each raw object is read into its client-java
 * model by client-java's own JSON; every problem is one {@link ScenarioException} naming the file
 * and the field ({@code rawObjects.pods[3].spec.priority}).
 */
public final class KaiSnapshotReader {
  /** The largest archive, and the most JSON inflated from it: 1 GiB, as for a scenario file. */
  static final long MAX_BYTES = 1L << 30;

  /** KAI writes one entry; a few more (a README, a directory) are skipped. */
  static final int MAX_ENTRIES = 64;

  /** Objects nest about a dozen levels (managedFields the deepest); far more is not an object. */
  static final int MAX_DEPTH = 100;

  /** The lists of {@code rawObjects} that hold objects Gantry does not schedule by. */
  static final ImmutableList<String> UNREAD_LISTS =
      ImmutableList.of(
          "configMaps",
          "persistentVolumes",
          "persistentVolumeClaims",
          "csiStorageCapacities",
          "storageClasses",
          "csiDrivers",
          "nodeResourceTopologies");

  private static final ObjectMapper MAPPER =
      new ObjectMapper(
          JsonFactory.builder()
              .streamReadConstraints(
                  StreamReadConstraints.builder()
                      .maxStringLength(YamlTreeReader.MAX_STRING_CHARS)
                      .maxNameLength(YamlTreeReader.MAX_STRING_CHARS)
                      .maxNestingDepth(MAX_DEPTH)
                      .build())
              .build());

  /**
   * Gson's location of a problem: {@code ... at line 1 column 9 path $.spec.x} or {@code ; at
   * path}.
   */
  private static final Pattern GSON_PATH =
      Pattern.compile(
          "(?s)(?:[\\w.$]+Exception: )?(.*?)(?: at line \\d+ column \\d+|;) at path \\$(\\S*).*");

  private KaiSnapshotReader() {}

  public static KaiSnapshot read(Path zip) throws ScenarioException {
    String name = zip.toString();
    BasicFileAttributes attributes;
    try {
      attributes = Files.readAttributes(zip, BasicFileAttributes.class);
    } catch (IOException e) {
      throw new ScenarioException(
          name,
          e instanceof NoSuchFileException
              ? IoProblem.describe(e)
              : "cannot read: " + IoProblem.describe(e),
          e);
    }
    if (!attributes.isRegularFile()) {
      throw new ScenarioException(name, 0, "", "not a regular file");
    }
    if (attributes.size() > MAX_BYTES) {
      throw new ScenarioException(
          name,
          0,
          "",
          "is " + attributes.size() + " bytes, more than the limit of " + MAX_BYTES + " (1 GiB)");
    }
    try (InputStream in = Files.newInputStream(zip)) {
      return read(name, in);
    } catch (IOException e) {
      throw new ScenarioException(name, "cannot read: " + IoProblem.describe(e), e);
    }
  }

  /** Reads the archive in {@code in}; {@code name} is what errors call it. */
  public static KaiSnapshot read(String name, InputStream in)
      throws ScenarioException, IOException {
    return read(name, in, MAX_BYTES);
  }

  /** {@link #read(String, InputStream)} inflating at most {@code maxBytes} (tests use less). */
  static KaiSnapshot read(String name, InputStream in, long maxBytes)
      throws ScenarioException, IOException {
    InputStream buffered = in.markSupported() ? in : new BufferedInputStream(in);
    buffered.mark(4);
    byte[] magic = buffered.readNBytes(4);
    buffered.reset();
    if (magic.length < 4 || magic[0] != 'P' || magic[1] != 'K' || magic[2] != 3 || magic[3] != 4) {
      throw new ScenarioException(
          name,
          0,
          "",
          "not a ZIP archive (a KAI snapshot is the ZIP file that the scheduler's /get-snapshot"
              + " serves)");
    }
    try (ZipInputStream entries = new ZipInputStream(buffered)) {
      // one count for every entry together, whatever sizes the entries claim
      Inflated inflated = new Inflated(entries, maxBytes);
      int seen = 0;
      for (ZipEntry e = entries.getNextEntry(); e != null; e = entries.getNextEntry()) {
        if (++seen > MAX_ENTRIES) {
          break;
        }
        if (!e.isDirectory() && e.getName().equals(KaiSnapshot.ENTRY)) {
          return parse(name + "!/" + KaiSnapshot.ENTRY, inflated);
        }
        // skipped by reading through, so that what is inflated stays counted
        inflated.transferTo(OutputStream.nullOutputStream());
      }
    } catch (TooLarge e) {
      throw new ScenarioException(
          name, 0, "", "inflates to more than " + maxBytes + " bytes; not read further");
    } catch (ZipException e) {
      throw new ScenarioException(name, 0, "", "not a valid ZIP archive: " + e.getMessage());
    }
    throw new ScenarioException(
        name, 0, "", "has no " + KaiSnapshot.ENTRY + " (a KAI snapshot holds one)");
  }

  private static KaiSnapshot parse(String source, InputStream json)
      throws ScenarioException, IOException {
    JsonNode root;
    try {
      root = MAPPER.readTree(json);
    } catch (TooLarge e) {
      throw e;
    } catch (StreamConstraintsException e) {
      throw new ScenarioException(source, line(e.getLocation()), "", JacksonLimits.describe(e));
    } catch (JsonProcessingException e) {
      throw new ScenarioException(
          source, line(e.getLocation()), "", "invalid JSON: " + e.getOriginalMessage());
    }
    if (root == null || !root.isObject()) {
      throw new ScenarioException(source, 0, "", "expected a JSON object");
    }
    ObjectNode config = objectOrEmpty(source, root, "config");
    ObjectNode params = objectOrEmpty(source, root, "schedulerParams");
    JsonNode raw = root.get("rawObjects");
    if (raw == null || !raw.isObject()) {
      throw new ScenarioException(
          source, 0, "rawObjects", raw == null ? "required" : "expected an object");
    }
    TreeSet<String> unread = new TreeSet<>();
    Iterator<Map.Entry<String, JsonNode>> fields = raw.fields();
    while (fields.hasNext()) {
      Map.Entry<String, JsonNode> f = fields.next();
      if (!READ_LISTS.contains(f.getKey()) && f.getValue().isArray() && !f.getValue().isEmpty()) {
        unread.add(f.getKey());
      }
    }
    KubeClients.installRelaxedJson();
    Lists lists = new Lists(source, raw);
    RawObjects objects =
        new RawObjects(
            lists.typed("pods", V1Pod.class, true),
            lists.typed("nodes", V1Node.class, false),
            lists.typed("priorityClasses", V1PriorityClass.class, false),
            lists.typed("queues", KaiQueue.class, false),
            lists.typed("podGroups", KaiPodGroup.class, true),
            lists.typed("topologies", KaiTopology.class, false),
            new RawObjects.Dra(
                lists.dynamic("deviceClasses", false),
                lists.dynamic("resourceSlices", false),
                lists.dynamic("resourceClaims", true),
                lists.dynamic("resourceClaimTemplates", true)));
    return new KaiSnapshot(
        config, params, objects, lists.bindRequests(), ImmutableList.copyOf(unread));
  }

  /** The lists Gantry reads, by their key in {@code rawObjects}. */
  static final ImmutableList<String> READ_LISTS =
      ImmutableList.of(
          "pods",
          "nodes",
          "priorityClasses",
          "queues",
          "podGroups",
          "topologies",
          "deviceClasses",
          "resourceSlices",
          "resourceClaims",
          "resourceClaimTemplates",
          "bindRequests");

  private static ObjectNode objectOrEmpty(String source, JsonNode root, String key)
      throws ScenarioException {
    JsonNode node = root.get(key);
    if (node == null || node.isNull()) {
      return MAPPER.createObjectNode();
    }
    if (!node.isObject()) {
      throw new ScenarioException(source, 0, key, "expected an object, got " + kind(node));
    }
    return (ObjectNode) node;
  }

  /** Reads the lists of {@code rawObjects}, each element checked and named by its path. */
  private record Lists(String source, JsonNode raw) {
    <T extends KubernetesObject> ImmutableList<T> typed(
        String key, Class<T> type, boolean namespaced) throws ScenarioException {
      ImmutableList.Builder<T> out = ImmutableList.builder();
      JsonNode list = list(key);
      for (int i = 0; i < list.size(); i++) {
        String field = "rawObjects." + key + "[" + i + "]";
        JsonNode element = element(list, i, field);
        T object;
        // read through a reader of our own, which knows where it stopped when a value is wrong
        JsonReader reader = new JsonReader(new StringReader(element.toString()));
        try {
          object = JSON.getGson().fromJson(reader, type);
        } catch (RuntimeException e) {
          throw gsonProblem(field, reader.getPath(), e);
        }
        checkMetadata(field, object.getMetadata(), namespaced);
        out.add(object);
      }
      return out.build();
    }

    ImmutableList<DynamicKubernetesObject> dynamic(String key, boolean namespaced)
        throws ScenarioException {
      ImmutableList.Builder<DynamicKubernetesObject> out = ImmutableList.builder();
      JsonNode list = list(key);
      for (int i = 0; i < list.size(); i++) {
        String field = "rawObjects." + key + "[" + i + "]";
        DynamicKubernetesObject object =
            new DynamicKubernetesObject(
                JsonParser.parseString(element(list, i, field).toString()).getAsJsonObject());
        V1ObjectMeta meta;
        try {
          meta = object.getMetadata();
        } catch (RuntimeException e) {
          throw gsonProblem(field + ".metadata", "$", e);
        }
        checkMetadata(field, meta, namespaced);
        out.add(object);
      }
      return out.build();
    }

    ImmutableList<KaiBindRequest> bindRequests() throws ScenarioException {
      ImmutableList.Builder<KaiBindRequest> out = ImmutableList.builder();
      JsonNode list = list("bindRequests");
      for (int i = 0; i < list.size(); i++) {
        String field = "rawObjects.bindRequests[" + i + "]";
        out.add(KaiBindRequest.read(source, field, element(list, i, field)));
      }
      return out.build();
    }

    private JsonNode list(String key) throws ScenarioException {
      JsonNode list = raw.get(key);
      if (list == null || list.isNull()) {
        return MAPPER.createArrayNode();
      }
      if (!list.isArray()) {
        throw new ScenarioException(
            source, 0, "rawObjects." + key, "expected a list, got " + kind(list));
      }
      return list;
    }

    private JsonNode element(JsonNode list, int i, String field) throws ScenarioException {
      JsonNode element = list.get(i);
      if (!element.isObject()) {
        throw new ScenarioException(source, 0, field, "expected an object, got " + kind(element));
      }
      return element;
    }

    private void checkMetadata(String field, V1ObjectMeta meta, boolean namespaced)
        throws ScenarioException {
      if (meta == null) {
        throw new ScenarioException(source, 0, field + ".metadata", "required");
      }
      if (meta.getName() == null || meta.getName().isEmpty()) {
        throw new ScenarioException(source, 0, field + ".metadata.name", "required");
      }
      if (namespaced && (meta.getNamespace() == null || meta.getNamespace().isEmpty())) {
        throw new ScenarioException(source, 0, field + ".metadata.namespace", "required");
      }
    }

    /**
     * Gson's complaint, at the field below {@code field} its reader stopped at ({@code path}, such
     * as {@code $.spec.priority}).
     */
    private ScenarioException gsonProblem(String field, String path, RuntimeException e) {
      Throwable cause = e;
      while (cause.getCause() != null && cause.getCause() != cause) {
        cause = cause.getCause();
      }
      String at = field + (path.startsWith("$") ? path.substring(1) : "");
      if (cause instanceof NumberFormatException) {
        String input = cause.getMessage() == null ? "" : cause.getMessage();
        return new ScenarioException(
            source, 0, at, "expected a number, got " + input.replace("For input string: ", ""));
      }
      String message = cause.getMessage() == null ? cause.toString() : cause.getMessage();
      Matcher m = GSON_PATH.matcher(message);
      return new ScenarioException(
          source, 0, at, words(m.matches() ? m.group(1) : message.lines().findFirst().orElse("")));
    }
  }

  /** Gson's token names in the words the scenario reader uses. */
  private static String words(String problem) {
    String out =
        problem
            .replace("BEGIN_OBJECT", "an object")
            .replace("BEGIN_ARRAY", "a list")
            .replace("STRING", "a string")
            .replace("NUMBER", "a number")
            .replace("BOOLEAN", "a boolean")
            .replace(" but was ", ", got ");
    return out.isEmpty() ? out : Character.toLowerCase(out.charAt(0)) + out.substring(1);
  }

  /** The kind of a JSON value, in the words of the scenario reader's errors. */
  static String kind(JsonNode node) {
    if (node.isObject()) {
      return "an object";
    }
    if (node.isArray()) {
      return "a list";
    }
    if (node.isTextual()) {
      return "a string";
    }
    if (node.isNumber()) {
      return "a number";
    }
    if (node.isBoolean()) {
      return "a boolean";
    }
    return "null";
  }

  private static int line(JsonLocation location) {
    return location == null ? 0 : Math.max(0, location.getLineNr());
  }

  /** The limit was passed: more inflated than a snapshot may be. */
  private static final class TooLarge extends IOException {
    private static final long serialVersionUID = 1L;

    TooLarge() {
      super("inflated past the limit");
    }
  }

  /**
   * Counts the bytes read through it and fails with {@link TooLarge} past its limit; its {@code
   * close} leaves the stream below open (an entry of a ZIP is closed by the next one).
   */
  private static final class Inflated extends FilterInputStream {
    private long read;

    private final long maxBytes;

    Inflated(InputStream in, long maxBytes) {
      super(in);
      this.maxBytes = maxBytes;
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      if (b >= 0) {
        count(1);
      }
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n = super.read(b, off, len);
      if (n > 0) {
        count(n);
      }
      return n;
    }

    @Override
    public long skip(long n) throws IOException {
      long skipped = super.skip(n);
      count(skipped);
      return skipped;
    }

    private void count(long n) throws TooLarge {
      read += n;
      if (read > maxBytes) {
        throw new TooLarge();
      }
    }

    @Override
    public void close() {
      // the ZipInputStream below is closed by its owner
    }
  }
}
