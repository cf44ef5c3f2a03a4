package io.gantry.extender.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.common.collect.ImmutableMap;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class NodeNamesTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String POD = "{\"Pod\":{\"metadata\":{\"name\":\"p\"}},\"NodeNames\":";

  private static NodeNames read(String nodeNamesJson) throws BadRequest {
    return WireCodec.extenderArgs((POD + nodeNamesJson + "}").getBytes(StandardCharsets.UTF_8))
        .nodeNames();
  }

  record Case(String name, String json, List<String> expected) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case("empty", "[]", List.of()),
        new Case("empty with space", "[ \n\t ]", List.of()),
        new Case("one", "[\"n1\"]", List.of("n1")),
        new Case("spaces everywhere", "[ \"a\" ,\n\"b\"\t, \"c\" ]", List.of("a", "b", "c")),
        new Case("escaped quote", "[\"a\\\"b\",\"c\"]", List.of("a\"b", "c")),
        new Case("escaped backslash last", "[\"a\\\\\",\"c\"]", List.of("a\\", "c")),
        new Case("unicode escape", "[\"node\\u002d1\"]", List.of("node-1")),
        new Case("UTF-8", "[\"nöde-ü\",\"日本\"]", List.of("nöde-ü", "日本")),
        new Case("repeated", "[\"a\",\"a\"]", List.of("a", "a")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void readsTheNamesAsSent(Case c) throws Exception {
    NodeNames names = read(c.json());
    assertThat(names).containsExactlyElementsOf(c.expected());
    for (String n : c.expected()) {
      assertThat(names.contains(n)).as(n).isTrue();
      assertThat(names.indexOf(n)).as(n).isEqualTo(c.expected().indexOf(n));
    }
    assertThat(names.contains("absent")).isFalse();
    assertThat(names.indexOf("absent")).isEqualTo(-1);
    assertThat(echo(names)).containsExactlyElementsOf(c.expected());
  }

  @Test
  void aLiteralsBytesAreNotMistakenForTheName() throws Exception {
    // the literal a\"b is the name a"b, not the name a\"b whose bytes it shares
    NodeNames names = read("[\"a\\\"b\"]");
    assertThat(names).containsExactly("a\"b");
    assertThat(names.contains("a\\\"b")).isFalse();
    assertThat(names.contains("a\"b")).isTrue();
  }

  @Test
  void anElementThatIsNotAStringIsNamed() {
    assertThatThrownBy(() -> read("[\"a\", \"b\", 7]"))
        .isInstanceOf(BadRequest.class)
        .hasMessage("NodeNames[2]: expected a string");
    assertThatThrownBy(() -> read("[[\"a\"]]"))
        .isInstanceOf(BadRequest.class)
        .hasMessage("NodeNames[0]: expected a string");
  }

  @Test
  void aNameThatIsNotUtf8IsNamed() {
    byte[] head = (POD + "[\"a\",\"").getBytes(StandardCharsets.UTF_8);
    byte[] tail = "\"]}".getBytes(StandardCharsets.UTF_8);
    byte[] body = new byte[head.length + 1 + tail.length];
    System.arraycopy(head, 0, body, 0, head.length);
    body[head.length] = (byte) 0xC3; // a lead byte with no continuation
    System.arraycopy(tail, 0, body, head.length + 1, tail.length);
    assertThatThrownBy(() -> WireCodec.extenderArgs(body)).isInstanceOf(BadRequest.class);
  }

  @Test
  void aControlCharacterInsideANameIsNotValidJson() {
    assertThatThrownBy(() -> read("[\"a\u0001b\"]"))
        .isInstanceOf(BadRequest.class)
        .hasMessageStartingWith("request body: not valid JSON");
  }

  /**
   * Random names (quotes, backslashes, control characters, non-ASCII), written by Jackson with
   * random spacing, read back and echoed in an answer: every step keeps the list, and every name is
   * found.
   */
  @Test
  void randomNamesSurviveReadingAndEchoing() throws Exception {
    Random random = new Random(20261201);
    String alphabet = "abz-.09\"\\/\u0001\n\tüö日\u2028";
    for (int round = 0; round < 300; round++) {
      List<String> names = new ArrayList<>();
      // beyond 16 names the offsets grow by what the first names project: uneven lengths, short
      // names first or long names first, make that projection wrong both ways
      int shape = round % 3;
      int count = random.nextInt(shape == 0 ? 20 : 300);
      for (int i = 0; i < count; i++) {
        StringBuilder b = new StringBuilder();
        int length =
            switch (shape) {
              case 0 -> random.nextInt(8);
              case 1 -> random.nextInt(i < 16 ? 2 : 60);
              default -> random.nextInt(i < 16 ? 60 : 2);
            };
        for (int k = 0; k < length; k++) {
          b.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        names.add(b.toString());
      }
      StringBuilder json = new StringBuilder("[");
      for (int i = 0; i < names.size(); i++) {
        json.append(i == 0 ? "" : ",").append(" ".repeat(random.nextInt(3)));
        json.append(JSON.writeValueAsString(names.get(i))).append("\n".repeat(random.nextInt(2)));
      }
      json.append("]");
      NodeNames read = read(json.toString());
      assertThat(read).as(json.toString()).containsExactlyElementsOf(names);
      assertThat(NodeNames.of(names)).containsExactlyElementsOf(names);
      assertThat(echo(read)).as(json.toString()).containsExactlyElementsOf(names);
      for (String n : names) {
        assertThat(read.indexOf(n)).isEqualTo(names.indexOf(n));
        assertThat(read.contains(n)).as(n).isTrue();
      }
    }
  }

  /** The names as a filter answer that passes them all carries them. */
  private static List<String> echo(NodeNames names) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ExtenderArgs args = new ExtenderArgs(new PodRef("d", "p", ""), names, Optional.empty());
    WireCodec.filterResult(
        new FilterResult(names, ImmutableMap.of(), ImmutableMap.of(), ""), args, out);
    List<String> echoed = new ArrayList<>();
    for (JsonNode n : JSON.readTree(out.toByteArray()).get("NodeNames")) {
      echoed.add(n.asText());
    }
    return echoed;
  }
}
