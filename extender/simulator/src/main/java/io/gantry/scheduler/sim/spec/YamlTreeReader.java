package io.gantry.scheduler.sim.spec;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.sim.spec.LocatedNode.Entry;
import io.gantry.scheduler.sim.spec.LocatedNode.ListNode;
import io.gantry.scheduler.sim.spec.LocatedNode.MapNode;
import io.gantry.scheduler.sim.spec.LocatedNode.ScalarKind;
import io.gantry.scheduler.sim.spec.LocatedNode.ScalarNode;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads one YAML (or JSON) document into a {@link LocatedNode} tree. */
final class YamlTreeReader {
  // SnakeYAML's messages end with the position of the problem, which can be later than the
  // location Jackson reports (the start of the enclosing construct).
  private static final Pattern PROBLEM_LINE = Pattern.compile("line (\\d+), column \\d+");

  private final String sourceName;
  private final JsonParser parser;

  private YamlTreeReader(String sourceName, JsonParser parser) {
    this.sourceName = sourceName;
    this.parser = parser;
  }

  static LocatedNode read(String sourceName, String text) throws ScenarioException {
    try (JsonParser parser = new YAMLFactory().createParser(text)) {
      YamlTreeReader reader = new YamlTreeReader(sourceName, parser);
      if (parser.nextToken() == null) {
        throw new ScenarioException(
            sourceName, 1, "", "expected a mapping at the top level, got an empty document");
      }
      LocatedNode root = reader.readValue("");
      if (parser.nextToken() != null) {
        throw new ScenarioException(
            sourceName, reader.line(), "", "expected one YAML document, found another");
      }
      return root;
    } catch (StreamReadException e) {
      throw syntaxError(sourceName, e);
    } catch (IOException e) {
      throw new ScenarioException(sourceName, "cannot read: " + e.getMessage(), e);
    }
  }

  /** Reads the value whose first token is the current one. */
  private LocatedNode readValue(String path) throws IOException, ScenarioException {
    JsonToken token = parser.currentToken();
    int line = line();
    if (parser instanceof YAMLParser && ((YAMLParser) parser).isCurrentAlias()) {
      throw new ScenarioException(sourceName, line, path, "YAML aliases (*name) are not supported");
    }
    switch (token) {
      case START_OBJECT:
        return readMap(path, line);
      case START_ARRAY:
        return readList(path, line);
      case VALUE_STRING:
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

  private MapNode readMap(String path, int line) throws IOException, ScenarioException {
    ImmutableList.Builder<Entry> entries = ImmutableList.builder();
    TreeMap<String, Integer> seen = new TreeMap<>();
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String key = parser.currentName();
      int keyLine = line();
      String keyPath = path.isEmpty() ? key : path + "." + key;
      Integer earlier = seen.putIfAbsent(key, keyLine);
      if (earlier != null) {
        throw new ScenarioException(
            sourceName, keyLine, keyPath, "duplicate key (already set on line " + earlier + ")");
      }
      parser.nextToken();
      entries.add(new Entry(key, keyLine, readValue(keyPath)));
    }
    return new MapNode(line, entries.build());
  }

  private ListNode readList(String path, int line) throws IOException, ScenarioException {
    ImmutableList.Builder<LocatedNode> items = ImmutableList.builder();
    int index = 0;
    while (parser.nextToken() != JsonToken.END_ARRAY) {
      items.add(readValue(path + "[" + index + "]"));
      index++;
    }
    return new ListNode(line, items.build());
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

  private static ScenarioException syntaxError(String sourceName, StreamReadException e) {
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
    return new ScenarioException(sourceName, Math.max(line, 1), "", "invalid YAML: " + problem);
  }
}
