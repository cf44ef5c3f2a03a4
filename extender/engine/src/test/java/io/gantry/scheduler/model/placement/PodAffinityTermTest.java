package io.gantry.scheduler.model.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class PodAffinityTermTest {
  record Case(
      String name,
      PodAffinityTerm term,
      String declaringNamespace,
      String candidateNamespace,
      boolean expected) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static final LabelSelector APP_WEB =
      LabelSelector.matchLabels(ImmutableMap.of("app", "web"));

  static Stream<Case> cases() {
    PodAffinityTerm ownNamespace = PodAffinityTerm.inOwnNamespace(APP_WEB, "zone");
    PodAffinityTerm listed =
        new PodAffinityTerm(APP_WEB, ImmutableList.of("prod", "staging"), "zone");
    PodAffinityTerm otherApp =
        PodAffinityTerm.inOwnNamespace(
            LabelSelector.matchLabels(ImmutableMap.of("app", "db")), "zone");
    return Stream.of(
        new Case("no namespaces selects the declaring namespace", ownNamespace, "dev", "dev", true),
        new Case("no namespaces excludes other namespaces", ownNamespace, "dev", "prod", false),
        new Case("listed namespaces select a listed one", listed, "dev", "staging", true),
        new Case("listed namespaces exclude the declaring one", listed, "dev", "dev", false),
        new Case("the selector must match too", otherApp, "dev", "dev", false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void selects(Case c) {
    assertThat(
            c.term()
                .selects(
                    c.declaringNamespace(), c.candidateNamespace(), ImmutableMap.of("app", "web")))
        .isEqualTo(c.expected());
  }

  @Test
  void requiresTopologyKey() {
    assertThatThrownBy(() -> PodAffinityTerm.inOwnNamespace(APP_WEB, ""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("topologyKey");
  }

  @Test
  void affinityCopiesAndReportsEmptiness() {
    List<PodAffinityTerm> terms = new ArrayList<>();
    Affinity affinity = new Affinity(ImmutableList.of(), terms, ImmutableList.of());
    terms.add(PodAffinityTerm.inOwnNamespace(APP_WEB, "zone"));
    assertThat(affinity.isEmpty()).isTrue();
    assertThat(affinity).isEqualTo(Affinity.none());
    assertThat(PodPlacementRequirements.none().affinity().isEmpty()).isTrue();
    assertThat(new Affinity(ImmutableList.of(), terms, ImmutableList.of()).isEmpty()).isFalse();
  }
}
