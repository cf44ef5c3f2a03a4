package io.gantry.fakekube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The three patch formats on plain documents, case by case. */
class PatchFormatsTest {
  record Case(String name, PatchType type, String target, String patch, String expected) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    return Stream.of(
        // RFC 7386
        new Case(
            "merge: null removes",
            PatchType.MERGE_PATCH,
            "{\"a\":1,\"b\":2}",
            "{\"a\":null}",
            "{\"b\":2}"),
        new Case(
            "merge: objects merge",
            PatchType.MERGE_PATCH,
            "{\"a\":{\"x\":1}}",
            "{\"a\":{\"y\":2}}",
            "{\"a\":{\"x\":1,\"y\":2}}"),
        new Case(
            "merge: lists replace",
            PatchType.MERGE_PATCH,
            "{\"a\":[1,2]}",
            "{\"a\":[3]}",
            "{\"a\":[3]}"),
        // RFC 6902
        new Case(
            "json: add appends with -",
            PatchType.JSON_PATCH,
            "{\"a\":[1]}",
            "[{\"op\":\"add\",\"path\":\"/a/-\",\"value\":2}]",
            "{\"a\":[1,2]}"),
        new Case(
            "json: add inserts at index",
            PatchType.JSON_PATCH,
            "{\"a\":[1,3]}",
            "[{\"op\":\"add\",\"path\":\"/a/1\",\"value\":2}]",
            "{\"a\":[1,2,3]}"),
        new Case(
            "json: remove array element",
            PatchType.JSON_PATCH,
            "{\"a\":[1,2,3]}",
            "[{\"op\":\"remove\",\"path\":\"/a/0\"}]",
            "{\"a\":[2,3]}"),
        new Case(
            "json: replace keeps key order",
            PatchType.JSON_PATCH,
            "{\"a\":1,\"b\":2}",
            "[{\"op\":\"replace\",\"path\":\"/a\",\"value\":9}]",
            "{\"a\":9,\"b\":2}"),
        new Case(
            "json: move",
            PatchType.JSON_PATCH,
            "{\"a\":{\"b\":1}}",
            "[{\"op\":\"move\",\"from\":\"/a/b\",\"path\":\"/c\"}]",
            "{\"a\":{},\"c\":1}"),
        new Case(
            "json: copy",
            PatchType.JSON_PATCH,
            "{\"a\":[1]}",
            "[{\"op\":\"copy\",\"from\":\"/a\",\"path\":\"/b\"}]",
            "{\"a\":[1],\"b\":[1]}"),
        new Case(
            "json: test passes",
            PatchType.JSON_PATCH,
            "{\"a\":\"x\"}",
            "[{\"op\":\"test\",\"path\":\"/a\",\"value\":\"x\"}]",
            "{\"a\":\"x\"}"),
        new Case(
            "json: escaped pointer",
            PatchType.JSON_PATCH,
            "{\"a/b\":{\"c~d\":1}}",
            "[{\"op\":\"replace\",\"path\":\"/a~1b/c~0d\",\"value\":2}]",
            "{\"a/b\":{\"c~d\":2}}"),
        // strategic merge patch, simplified
        new Case(
            "smp: conditions merge by type",
            PatchType.STRATEGIC_MERGE_PATCH,
            "{\"conditions\":[{\"type\":\"A\",\"status\":\"True\"},{\"type\":\"B\",\"status\":\"True\"}]}",
            "{\"conditions\":[{\"type\":\"B\",\"status\":\"False\"},{\"type\":\"C\",\"status\":\"True\"}]}",
            "{\"conditions\":[{\"type\":\"A\",\"status\":\"True\"},{\"type\":\"B\",\"status\":\"False\"},{\"type\":\"C\",\"status\":\"True\"}]}"),
        new Case(
            "smp: $patch delete removes an element",
            PatchType.STRATEGIC_MERGE_PATCH,
            "{\"containers\":[{\"name\":\"a\"},{\"name\":\"b\"}]}",
            "{\"containers\":[{\"name\":\"a\",\"$patch\":\"delete\"}]}",
            "{\"containers\":[{\"name\":\"b\"}]}"),
        new Case(
            "smp: finalizers merge as a set",
            PatchType.STRATEGIC_MERGE_PATCH,
            "{\"metadata\":{\"finalizers\":[\"x\"]}}",
            "{\"metadata\":{\"finalizers\":[\"x\",\"y\"]}}",
            "{\"metadata\":{\"finalizers\":[\"x\",\"y\"]}}"),
        new Case(
            "smp: $deleteFromPrimitiveList",
            PatchType.STRATEGIC_MERGE_PATCH,
            "{\"metadata\":{\"finalizers\":[\"x\",\"y\"]}}",
            "{\"metadata\":{\"$deleteFromPrimitiveList/finalizers\":[\"x\"]}}",
            "{\"metadata\":{\"finalizers\":[\"y\"]}}"),
        new Case(
            "smp: other lists replace",
            PatchType.STRATEGIC_MERGE_PATCH,
            "{\"args\":[\"a\"]}",
            "{\"args\":[\"b\"]}",
            "{\"args\":[\"b\"]}"),
        new Case(
            "smp: $patch replace on a map",
            PatchType.STRATEGIC_MERGE_PATCH,
            "{\"labels\":{\"a\":\"1\"}}",
            "{\"labels\":{\"b\":\"2\",\"$patch\":\"replace\"}}",
            "{\"labels\":{\"b\":\"2\"}}"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void appliesAsSpecified(Case c) {
    JsonNode result = c.type().apply(Json.parse(c.target()), Json.parse(c.patch()));

    assertThat(Json.write(result)).isEqualTo(Json.write(Json.parse(c.expected())));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("failures")
  void failsWithStatus(String name, String patch, int code) {
    assertThatThrownBy(
            () -> PatchType.JSON_PATCH.apply(Json.parse("{\"a\":[1]}"), Json.parse(patch)))
        .isInstanceOfSatisfying(
            StatusException.class, e -> assertThat(e.status().code()).isEqualTo(code));
  }

  static Stream<org.junit.jupiter.params.provider.Arguments> failures() {
    return Stream.of(
        org.junit.jupiter.params.provider.Arguments.of("not an array", "{}", 400),
        org.junit.jupiter.params.provider.Arguments.of(
            "unknown op", "[{\"op\":\"frob\",\"path\":\"/a\"}]", 400),
        org.junit.jupiter.params.provider.Arguments.of(
            "remove missing", "[{\"op\":\"remove\",\"path\":\"/b\"}]", 422),
        org.junit.jupiter.params.provider.Arguments.of(
            "replace missing", "[{\"op\":\"replace\",\"path\":\"/b\",\"value\":1}]", 422),
        org.junit.jupiter.params.provider.Arguments.of(
            "index out of range", "[{\"op\":\"add\",\"path\":\"/a/5\",\"value\":1}]", 422),
        org.junit.jupiter.params.provider.Arguments.of(
            "test fails", "[{\"op\":\"test\",\"path\":\"/a\",\"value\":[2]}]", 422));
  }
}
