package io.gantry.fakekube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Pod;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Label and field selectors with k8s.io/apimachinery's grammar and meaning. */
class SelectorTest {
  private static final ObjectNode OBJECT =
      Json.parseObject(
          "{\"metadata\":{\"name\":\"p\",\"namespace\":\"ns\",\"labels\":{\"app\":\"web\",\"tier\":\"1\",\"gpu\":\"8\"}},"
              + "\"spec\":{\"nodeName\":\"n1\"},\"status\":{\"phase\":\"Running\"}}");

  static Stream<Arguments> labelCases() {
    return Stream.of(
        Arguments.of("", true),
        Arguments.of("app=web", true),
        Arguments.of("app==web", true),
        Arguments.of("app=db", false),
        Arguments.of("app!=db", true),
        Arguments.of("missing!=x", true),
        Arguments.of("app in (db, web)", true),
        Arguments.of("app in (db)", false),
        Arguments.of("app notin (db)", true),
        Arguments.of("missing notin (db)", true),
        Arguments.of("app", true),
        Arguments.of("missing", false),
        Arguments.of("!missing", true),
        Arguments.of("!app", false),
        Arguments.of("gpu>4", true),
        Arguments.of("gpu<4", false),
        Arguments.of("app=web,tier in (1,2),!missing", true),
        Arguments.of("app=web,tier=2", false),
        Arguments.of("app=", false));
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @MethodSource("labelCases")
  void labelSelectorMatchesAsApimachineryDoes(String selector, boolean matches) {
    assertThat(LabelSelector.parse(selector).matches(OBJECT)).isEqualTo(matches);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badLabelSelectors")
  void badLabelSelectorIsBadRequest(String selector) {
    assertThatThrownBy(() -> LabelSelector.parse(selector))
        .isInstanceOfSatisfying(
            StatusException.class, e -> assertThat(e.status().code()).isEqualTo(400));
  }

  static Stream<String> badLabelSelectors() {
    return Stream.of("app in web", "=web", "app==(x)", "gpu>x", "a b");
  }

  static Stream<Arguments> fieldCases() {
    return Stream.of(
        Arguments.of("metadata.name=p", true),
        Arguments.of("metadata.namespace==ns", true),
        Arguments.of("spec.nodeName=n1", true),
        Arguments.of("spec.nodeName=", false),
        Arguments.of("status.phase!=Running", false),
        Arguments.of("status.phase!=Succeeded,status.phase!=Failed", true));
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @MethodSource("fieldCases")
  void fieldSelectorMatchesPodFieldLabels(String selector, boolean matches) {
    assertThat(FieldSelector.parse(selector, ResourceKinds.PODS).matches(OBJECT))
        .isEqualTo(matches);
  }

  @Test
  void unsupportedFieldLabelIsBadRequestAsOnTheRealServer() {
    assertThatThrownBy(() -> FieldSelector.parse("spec.nodeName=n1", ResourceKinds.CONFIG_MAPS))
        .isInstanceOfSatisfying(
            StatusException.class,
            e -> assertThat(e.getMessage()).isEqualTo("field label not supported: spec.nodeName"));
  }

  @Test
  void listOverHttpFiltersByLabelsAndFieldsLikeKubeSchedulersPendingPodQuery() throws ApiException {
    try (FakeKubeServer kube = FakeKubeServer.start()) {
      CoreV1Api core = new CoreV1Api(Clients.apiClient(kube));
      for (String name : new String[] {"a", "b", "c"}) {
        V1Pod pod = Clients.pod("default", name);
        pod.getMetadata().putLabelsItem("app", name.equals("c") ? "db" : "web");
        core.createNamespacedPod("default", pod).execute();
      }
      kube.store().bind("default", "b", Json.parseObject("{\"target\":{\"name\":\"n1\"}}"));

      assertThat(
              core.listPodForAllNamespaces()
                  .labelSelector("app in (web)")
                  .fieldSelector("spec.nodeName=,status.phase!=Succeeded")
                  .execute()
                  .getItems())
          .extracting(p -> p.getMetadata().getName())
          .containsExactly("a");
      assertThatThrownBy(
              () -> core.listNamespacedPod("default").fieldSelector("spec.foo=1").execute())
          .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.getCode()).isEqualTo(400));
    }
  }
}
