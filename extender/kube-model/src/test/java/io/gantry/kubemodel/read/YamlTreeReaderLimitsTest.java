package io.gantry.kubemodel.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * The documented limits on what a scenario (or scheduler) file may hold, and the parser each file
 * is read with: a {@code .json} file with a JSON parser, anything else with a YAML parser.
 */
class YamlTreeReaderLimitsTest {
  private static final int LIMIT = YamlTreeReader.MAX_STRING_CHARS;

  @Test
  void aYamlValueOneCharacterOverTheLimitIsRefusedNamingItsLine() {
    String text = "a: 1\nb: " + "x".repeat(LIMIT - 3) + "y\n";

    assertThatThrownBy(() -> YamlTreeReader.read("s.yaml", text))
        .isInstanceOf(ScenarioException.class)
        .hasMessage(
            "s.yaml:2: line is "
                + (LIMIT + 1)
                + " characters long, more than the limit of 262144 for a string value or a line of"
                + " YAML (a JSON file, named .json, may have longer lines)");
  }

  @Test
  void aYamlValueAtTheLimitIsRead() throws ScenarioException {
    String value = "x".repeat(LIMIT - 3);
    LocatedNode root = YamlTreeReader.read("s.yaml", "b: " + value + "\n");

    assertThat(((LocatedNode.MapNode) root).entries().get(0).value())
        .isInstanceOfSatisfying(
            LocatedNode.ScalarNode.class, s -> assertThat(s.text()).isEqualTo(value));
  }

  @Test
  void aLongMultiLineYamlStringIsRefusedAtTheStringLimit() {
    // short lines pass the line check; the string they make is still over the limit
    String line = "  " + "x".repeat(99) + "\n";
    String text = "a: 1\nb: |\n" + line.repeat(LIMIT / 100 + 1);

    assertThatThrownBy(() -> YamlTreeReader.read("s.yaml", text))
        .isInstanceOf(ScenarioException.class)
        .hasMessageStartingWith("s.yaml:")
        .hasMessageEndingWith(": a string is longer than the limit of 262144 characters");
  }

  @Test
  void aJsonStringOverTheLimitIsRefused() {
    String text = "{\"a\": 1,\n \"b\": \"" + "x".repeat(LIMIT + 1) + "\"}\n";

    assertThatThrownBy(() -> YamlTreeReader.read("s.json", text))
        .isInstanceOf(ScenarioException.class)
        .hasMessage("s.json:2: a string is longer than the limit of 262144 characters");
  }

  @Test
  void aJsonFileMayHaveALongLineOfShortStrings() throws ScenarioException {
    StringBuilder text = new StringBuilder("{\"items\": [");
    for (int i = 0; i < LIMIT / 4; i++) {
      text.append(i == 0 ? "" : ",").append("\"ab\"");
    }
    text.append("]}");

    LocatedNode root = YamlTreeReader.read("s.json", text.toString());

    assertThat(((LocatedNode.MapNode) root).entries().get(0).value())
        .isInstanceOfSatisfying(
            LocatedNode.ListNode.class, l -> assertThat(l.items()).hasSize(LIMIT / 4));
  }

  @Test
  void aJsonFileIsReadWithAJsonParser() {
    // valid YAML (a comment, a plain key and value), not JSON
    String text = "{\n  # a comment\n  name: x\n}\n";

    assertThatThrownBy(() -> YamlTreeReader.read("s.json", text))
        .isInstanceOf(ScenarioException.class)
        .hasMessageStartingWith("s.json:2: invalid JSON: ");
    assertThatThrownBy(() -> YamlTreeReader.read("s.json", "{\"a\": 1}\n---\n{\"b\": 2}\n"))
        .isInstanceOf(ScenarioException.class)
        .hasMessageStartingWith("s.json:2: invalid JSON: ");
  }

  @Test
  void theSameTextNamedYamlIsReadAsYaml() throws ScenarioException {
    LocatedNode root = YamlTreeReader.read("s.yaml", "{\n  # a comment\n  name: x\n}\n");

    assertThat(((LocatedNode.MapNode) root).entries().get(0).key()).isEqualTo("name");
  }
}
