package io.gantry.kubemodel.kai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.model.Topology;
import io.gantry.scheduler.model.TopologyConstraint;
import io.gantry.scheduler.model.TopologyLevel;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** KAI's Topology rules (kai-reference §2.4) and the constraint check, each naming its field. */
class TopologyRulesTest {
  private static TopologyLevel level(String label) {
    return new TopologyLevel(label, Optional.empty());
  }

  private static TopologyLevel level(String label, String alias) {
    return new TopologyLevel(label, Optional.of(alias));
  }

  record Case(String name, List<TopologyLevel> levels, String field, String problem) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> invalid() {
    List<TopologyLevel> seventeen = new ArrayList<>();
    for (int i = 0; i < 17; i++) {
      seventeen.add(level("l" + i));
    }
    return Stream.of(
        new Case("no levels", List.of(), "levels", "must list 1 to 16 levels, got 0"),
        new Case("17 levels", seventeen, "levels", "must list 1 to 16 levels, got 17"),
        new Case(
            "empty node label", List.of(level("")), "levels[0].nodeLabel", "must not be empty"),
        new Case(
            "duplicate node label",
            List.of(level("rack"), level("rack")),
            "levels[1].nodeLabel",
            "duplicate node label \"rack\""),
        new Case(
            "hostname above another level",
            List.of(level("kubernetes.io/hostname"), level("rack")),
            "levels[0].nodeLabel",
            "kubernetes.io/hostname may only be the last level"),
        new Case(
            "alias equal to a node label",
            List.of(level("zone"), level("rack", "zone")),
            "levels[1].alias",
            "alias \"zone\" equals a level's node label"),
        new Case(
            "duplicate alias",
            List.of(level("a", "x"), level("b", "x")),
            "levels[1].alias",
            "duplicate alias \"x\""));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalid")
  void anInvalidTopologyNamesTheField(Case c) {
    assertThatThrownBy(() -> TopologyRules.topology("t", c.levels()))
        .isInstanceOfSatisfying(
            KaiObjectException.class,
            e -> {
              assertThat(e.field()).isEqualTo(c.field());
              assertThat(e.problem()).isEqualTo(c.problem());
            });
  }

  @Test
  void aValidTopologyKeepsItsLevelsAndResolvesAliases() {
    Topology t =
        TopologyRules.topology(
            "dc", List.of(level("zone"), level("rack", "r"), level("kubernetes.io/hostname")));

    assertThat(t.levels()).hasSize(3);
    assertThat(t.levelIndex("r")).hasValue(1);
    assertThat(t.levelIndex("rack")).hasValue(1);
    assertThat(t.levelIndex("row")).isEmpty();
  }

  @Test
  void aConstraintNamesLevelsOfItsTopologyWithThePreferredOneNotWider() {
    Topology t = new Topology("dc", ImmutableList.of(level("zone"), level("rack", "r")));

    TopologyRules.checkConstraint(
        new TopologyConstraint("dc", Optional.of("zone"), Optional.of("r")), t);
    assertThatThrownBy(
            () ->
                TopologyRules.checkConstraint(
                    new TopologyConstraint("dc", Optional.of("row"), Optional.empty()), t))
        .hasMessage(
            "requiredTopologyLevel: topology \"dc\" has no level \"row\" (levels: zone, rack)");
    assertThatThrownBy(
            () ->
                TopologyRules.checkConstraint(
                    new TopologyConstraint("dc", Optional.of("r"), Optional.of("zone")), t))
        .hasMessage(
            "preferredTopologyLevel: level \"zone\" is wider than the required level \"r\"");
  }

  @Test
  void aNodeBelongsToTheTopologyOnlyWithEveryLevelLabel() {
    Topology t = new Topology("dc", ImmutableList.of(level("zone"), level("rack")));

    assertThat(t.domainIds(Map.of("zone", "z1", "rack", "r1")))
        .hasValue(ImmutableList.of("z1", "z1.r1"));
    assertThat(t.domainIds(Map.of("zone", "z1"))).isEmpty();
  }
}
