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

  @Test
  void theFieldsAroundTheNamesAreReadInAnyOrder() throws Exception {
    ExtenderArgs args =
        WireCodec.extenderArgs(
            ("{\"nodenames\":[\"x\"],\"NodeNames\":[\"a\",\"b\"],\"Extra\":{\"k\":[1,[2]]},"
                    + "\"Pod\":{\"metadata\":{\"name\":\"p\",\"namespace\":\"n\"}},\"Nodes\":null,"
                    + "\"NODENAMES\":[\"y\"]} \n")
                .getBytes(StandardCharsets.UTF_8));
    // the exact key wins over the other capitalisations, before or after it
    assertThat(args.nodeNames()).containsExactly("a", "b");
    assertThat(args.pod()).isEqualTo(new PodRef("n", "p", ""));
    assertThat(WireCodec.extenderArgs((POD + "[]}").getBytes(StandardCharsets.UTF_8)).nodeNames())
        .isEmpty();
  }

  @Test
  void whatFollowsTheNamesIsStillChecked() {
    assertThatThrownBy(() -> read("[\"a\"],\"Pod\":7"))
        .isInstanceOf(BadRequest.class)
        .hasMessage("Pod: expected a Pod object");
    assertThatThrownBy(
            () -> WireCodec.extenderArgs((POD + "[\"a\"]").getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(BadRequest.class)
        .hasMessageStartingWith("request body: not valid JSON: Unexpected end-of-input");
    assertThatThrownBy(
            () -> WireCodec.extenderArgs((POD + "[\"a\"]} {}").getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(BadRequest.class)
        .hasMessage("request body: not valid JSON: trailing content after the object");
    assertThatThrownBy(
            () -> WireCodec.extenderArgs((POD + "[\"a\" ").getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(BadRequest.class)
        .hasMessage("request body: not valid JSON: NodeNames[0]: the array is not closed");
    assertThatThrownBy(() -> read("[\"a\"] \"b\"]"))
        .isInstanceOf(BadRequest.class)
        .hasMessageStartingWith("request body: not valid JSON");
  }

  static Stream<Case> invalid() {
    return Stream.of(
        new Case("unknown escape", "[\"a\\xb\"]", List.of("NodeNames[0]: unknown escape \\x")),
        new Case(
            "short unicode escape",
            "[\"a\", \"\\u12\"]",
            List.of("NodeNames[1]: \\u must be followed by four hex digits")),
        new Case("unclosed string", "[\"a", List.of("NodeNames[0]: the string is not closed")),
        new Case(
            "array cut by the object's end",
            "[\"a\"",
            List.of("NodeNames[0]: expected ',' or ']' after it")),
        new Case(
            "no comma", "[\"a\" \"b\"]", List.of("NodeNames[0]: expected ',' or ']' after it")),
        new Case(
            "control character",
            "[\"a\tb\"]",
            List.of("NodeNames[0]: control character 9 must be escaped")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalid")
  void invalidJsonInTheNamesIsNamed(Case c) {
    assertThatThrownBy(() -> read(c.json()))
        .isInstanceOf(BadRequest.class)
        .hasMessage("request body: not valid JSON: " + c.expected().get(0));
  }

  @Test
  void bytesThatAreNotUtf8AreRefused() throws Exception {
    int[][] bad = {
      {0xC0, 0xAF}, // overlong '/'
      {0xED, 0xA0, 0x80}, // a surrogate
      {0xE2, 0x82}, // cut short before the quote
      {0xF4, 0x90, 0x80, 0x80}, // past U+10FFFF
      {0x80}, // a continuation byte alone
      {0xFF}
    };
    for (int[] bytes : bad) {
      byte[] head = (POD + "[\"ok\",\"").getBytes(StandardCharsets.UTF_8);
      byte[] tail = "\"]}".getBytes(StandardCharsets.UTF_8);
      byte[] body = new byte[head.length + bytes.length + tail.length];
      System.arraycopy(head, 0, body, 0, head.length);
      for (int i = 0; i < bytes.length; i++) {
        body[head.length + i] = (byte) bytes[i];
      }
      System.arraycopy(tail, 0, body, head.length + bytes.length, tail.length);
      assertThatThrownBy(() -> WireCodec.extenderArgs(body))
          .as(java.util.Arrays.toString(bytes))
          .isInstanceOf(BadRequest.class)
          .hasMessageStartingWith("request body: not valid JSON: NodeNames[1]: ");
    }
    // the longest valid sequences pass
    assertThat(read("[\"\uD83D\uDE00\u00E9\u20AC\"]")).containsExactly("\uD83D\uDE00\u00E9\u20AC");
  }

  /**
   * Random names (quotes, backslashes, control characters, non-ASCII), written by Jackson with
   * random spacing, read back and echoed in an answer: every step keeps the list.
   */
  @Test
  void randomNamesSurviveReadingAndEchoing() throws Exception {
    Random random = new Random(20261201);
    String alphabet = "abz-.09\"\\/\u0001\n\tüö日\u2028";
    for (int round = 0; round < 300; round++) {
      List<String> names = new ArrayList<>();
      int count = random.nextInt(20);
      for (int i = 0; i < count; i++) {
        StringBuilder b = new StringBuilder();
        int length = random.nextInt(8);
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
