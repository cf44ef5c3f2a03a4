package io.gantry.kubemodel.read;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import com.google.common.collect.ImmutableList;
import io.gantry.kubemodel.read.LocatedNode.Entry;
import io.gantry.kubemodel.read.LocatedNode.ListNode;
import io.gantry.kubemodel.read.LocatedNode.MapNode;
import io.gantry.kubemodel.read.LocatedNode.ScalarKind;
import io.gantry.kubemodel.read.LocatedNode.ScalarNode;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.Locale;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.LoaderOptions;

/**
 * Reads one YAML or JSON document into a {@link LocatedNode} tree: a source whose name ends in
 * {@code .json} with a JSON parser (YAML-only syntax there is an error naming its line), any other
 * with a YAML parser. A document may be as large as a scenario file ({@link
 * ScenarioFileReader#MAX_FILE_BYTES}); a string value (and a key) may be at most {@link
 * #MAX_STRING_CHARS} characters, and a YAML text may have no longer line, checked before parsing
 * ({@link LongLineCheck}). Values may nest {@link #MAX_DEPTH} levels deep, far more than the format
 * uses.
 */
public final class YamlTreeReader {
  /** Mappings and lists inside each other; the format's deepest field is about a dozen levels. */
  static final int MAX_DEPTH = 100;

  /**
   * The longest string value or key, in characters: 256 KiB, Kubernetes' limit for all the
   * annotations of one object together, so any value of a real object fits.
   */
  public static final int MAX_STRING_CHARS = 256 * 1024;

  // SnakeYAML's messages end with the position of the problem, which can be later than the
  // location Jackson reports (the start of the enclosing construct).
  private static final Pattern PROBLEM_LINE = Pattern.compile("line (\\d+), column \\d+");

  private static final StreamReadConstraints LIMITS =
      StreamReadConstraints.builder()
          .maxDocumentLength(ScenarioFileReader.MAX_FILE_BYTES)
          .maxStringLength(MAX_STRING_CHARS)
          .maxNameLength(MAX_STRING_CHARS)
          .build();

  private static final YAMLFactory YAML = yamlFactory();

  private static final JsonFactory JSON =
      JsonFactory.builder().streamReadConstraints(LIMITS).build();

  private final String sourceName;
  private final JsonParser parser;

  private YamlTreeReader(String sourceName, JsonParser parser) {
    this.sourceName = sourceName;
    this.parser = parser;
  }

  private static YAMLFactory yamlFactory() {
    LoaderOptions options = new LoaderOptions();
    // Code points never outnumber the bytes of the UTF-8 file they come from.
    options.setCodePointLimit(Math.toIntExact(ScenarioFileReader.MAX_FILE_BYTES));
    return YAMLFactory.builder().loaderOptions(options).streamReadConstraints(LIMITS).build();
  }

  /** Reads {@code text} as JSON when {@code sourceName} ends in {@code .json}, else as YAML. */
  public static LocatedNode read(String sourceName, String text) throws ScenarioException {
    return read(sourceName, text, isJson(sourceName));
  }

  /** Reads {@code text}, JSON whatever {@code sourceName} says (an object from the API server). */
  public static LocatedNode readJson(String sourceName, String text) throws ScenarioException {
    return read(sourceName, text, true);
  }

  private static LocatedNode read(String sourceName, String text, boolean json)
      throws ScenarioException {
    if (!json) {
      LongLineCheck.check(sourceName, text, MAX_STRING_CHARS);
    }
    YamlTreeReader reader = null;
    try (JsonParser parser = json ? JSON.createParser(text) : YAML.createParser(text)) {
      reader = new YamlTreeReader(sourceName, parser);
      if (parser.nextToken() == null) {
        throw new ScenarioException(
            sourceName, 1, "", "expected a mapping at the top level, got an empty document");
      }
      LocatedNode root = reader.readValue("", 1);
      if (parser.nextToken() != null) {
        throw new ScenarioException(
            sourceName,
            reader.line(),
            "",
            "expected one " + (json ? "JSON" : "YAML") + " document, found another");
      }
      return root;
    } catch (StreamReadException e) {
      throw syntaxError(sourceName, e, json);
    } catch (StreamConstraintsException e) {
      // MAX_STRING_CHARS is Jackson's string limit; its other bounds lie beyond the file-size
      // limit and MAX_DEPTH, which stop a document first. Either is reported in plain words.
      int line = reader == null ? 0 : reader.line();
      if (JacksonLimits.isStringLength(e)) {
        throw tooLong(sourceName, line);
      }
      throw new ScenarioException(
          sourceName, line, "", "too large to read: " + JacksonLimits.describe(e));
    } catch (IOException e) {
      throw new ScenarioException(sourceName, "cannot read: " + e.getMessage(), e);
    }
  }

  /** Reads the value whose first token is the current one, {@code depth} levels down. */
  private LocatedNode readValue(String path, int depth) throws IOException, ScenarioException {
    JsonToken token = parser.currentToken();
    int line = line();
    if (parser instanceof YAMLParser && ((YAMLParser) parser).isCurrentAlias()) {
      throw new ScenarioException(sourceName, line, path, "YAML aliases (*name) are not supported");
    }
    if (depth > MAX_DEPTH && (token == JsonToken.START_OBJECT || token == JsonToken.START_ARRAY)) {
      throw new ScenarioException(
          sourceName,
          line,
          "",
          "mappings and lists nest more than " + MAX_DEPTH + " levels deep here");
    }
    switch (token) {
      case START_OBJECT:
        return readMap(path, line, depth);
      case START_ARRAY:
        return readList(path, line, depth);
      case VALUE_STRING:
        checkLength(parser.getTextLength(), line);
        return scalar(line, ScalarKind.STRING, Optional.empty());
      case VALUE_NUMBER_INT:
        return scalar(
            line, ScalarKind.INTEGER, Optional.of(new BigDecimal(parser.getBigIntegerValue())));
      case VALUE_NUMBER_FLOAT:
        return scalar(line, ScalarKind.FLOAT, finiteDecimal());
      case VALUE_TRUE:
        return scalar(line, ScalarKind.TRUE, Optional.empty());
      case VALUE_FALSE:
        return scalar(line, ScalarKind.FALSE, Optional.empty());
      case VALUE_NULL:
        return scalar(line, ScalarKind.NULL, Optional.empty());
      default:
        throw new ScenarioException(sourceName, line, path, "unsupported YAML value " + token);
    }
  }

  private MapNode readMap(String path, int line, int depth) throws IOException, ScenarioException {
    ImmutableList.Builder<Entry> entries = ImmutableList.builder();
    TreeMap<String, Integer> seen = new TreeMap<>();
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String key = parser.currentName();
      int keyLine = line();
      checkLength(key.length(), keyLine);
      String keyPath = path.isEmpty() ? key : path + "." + key;
      Integer earlier = seen.putIfAbsent(key, keyLine);
      if (earlier != null) {
        throw new ScenarioException(
            sourceName, keyLine, keyPath, "duplicate key (already set on line " + earlier + ")");
      }
      parser.nextToken();
      entries.add(new Entry(key, keyLine, readValue(keyPath, depth + 1)));
    }
    return new MapNode(line, entries.build());
  }

  private ListNode readList(String path, int line, int depth)
      throws IOException, ScenarioException {
    ImmutableList.Builder<LocatedNode> items = ImmutableList.builder();
    int index = 0;
    while (parser.nextToken() != JsonToken.END_ARRAY) {
      items.add(readValue(path + "[" + index + "]", depth + 1));
      index++;
    }
    return new ListNode(line, items.build());
  }

  /**
   * Jackson's YAML parser takes SnakeYAML's scalars without its string limit; a multi-line scalar
   * (each of its lines within {@link LongLineCheck}) is held to the same limit here.
   */
  private void checkLength(int length, int line) throws ScenarioException {
    if (length > MAX_STRING_CHARS) {
      throw tooLong(sourceName, line);
    }
  }

  private static ScenarioException tooLong(String sourceName, int line) {
    return new ScenarioException(
        sourceName,
        line,
        "",
        "a string is longer than the limit of " + MAX_STRING_CHARS + " characters");
  }

  private ScalarNode scalar(int line, ScalarKind kind, Optional<BigDecimal> number)
      throws IOException {
    return new ScalarNode(line, kind, parser.getText(), number);
  }

  private Optional<BigDecimal> finiteDecimal() throws IOException {
    try {
      return Optional.of(parser.getDecimalValue());
    } catch (StreamReadException | NumberFormatException e) {
      // .inf and .nan are YAML floats without a decimal value.
      return Optional.empty();
    }
  }

  private int line() {
    return parser.currentTokenLocation().getLineNr();
  }

  private static boolean isJson(String sourceName) {
    return sourceName.toLowerCase(Locale.ROOT).endsWith(".json");
  }

  private static ScenarioException syntaxError(
      String sourceName, StreamReadException e, boolean json) {
    String message = e.getOriginalMessage();
    int line = e.getLocation() == null ? 0 : e.getLocation().getLineNr();
    Matcher position = PROBLEM_LINE.matcher(message);
    while (position.find()) {
      line = Integer.parseInt(position.group(1));
    }
    String problem = message.strip();
    for (String part : message.split("\n", -1)) {
      if (!part.isBlank() && !Character.isWhitespace(part.charAt(0))) {
        problem = part.strip();
      }
    }
    String format = json ? "JSON" : "YAML";
    return new ScenarioException(
        sourceName, Math.max(line, 1), "", "invalid " + format + ": " + problem);
  }
}
