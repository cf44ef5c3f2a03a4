package io.gantry.kubemodel.read;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Paths with dotted keys and list indices, resolved as far as the document has them. */
class FieldLocatorTest {
  private static final String YAML =
      """
      metadata:
        annotations:
          kai.scheduler/batch-min-member: "2"
          kai.scheduler/batch: x
      spec:
        replicatedJobs:
          - name: a
          - name: b
            replicas: 3
      """;

  record Case(String path, int line) {
    @Override
    public String toString() {
      return path.isEmpty() ? "(the root)" : path;
    }
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case("metadata.annotations.kai.scheduler/batch-min-member", 3),
        new Case("metadata.annotations.kai.scheduler/batch", 4),
        new Case("spec.replicatedJobs[1].replicas", 9),
        new Case("spec.replicatedJobs[1].template.spec", 8),
        new Case("spec.replicatedJobs[7].name", 6),
        new Case("status.phase", 1),
        new Case("", 1));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void locates(Case c) throws ScenarioException {
    Field root = Field.root("f.yaml", YamlTreeReader.read("f.yaml", YAML));

    assertThat(FieldLocator.locate(root, c.path()).line()).isEqualTo(c.line());
  }
}
