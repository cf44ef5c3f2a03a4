package io.gantry.kubemodel.kai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.collect.ImmutableList;
import io.gantry.scheduler.model.PodSet;
import io.gantry.scheduler.model.SubGroupSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The scheduler's reading of a PodGroup's gang, and the shape rules it cannot read without. */
class PodGroupShapeTest {

  @Test
  void aFlatPodGroupIsOneDefaultPodSetWithMinMemberOne() {
    assertThat(PodGroupShape.tree(OptionalInt.empty(), OptionalInt.empty(), List.of()))
        .isEqualTo(
            new SubGroupSet("", OptionalInt.empty(), ImmutableList.of(new PodSet("default", 1))));
    assertThat(PodGroupShape.tree(OptionalInt.of(0), OptionalInt.empty(), List.of()).children())
        .containsExactly(new PodSet("default", 0));
  }

  @Test
  void subGroupsDefaultLeavesToZeroAndInnerToAllChildren() {
    SubGroupSet tree =
        PodGroupShape.tree(
            OptionalInt.empty(),
            OptionalInt.of(1),
            List.of(
                sg("leader", null, OptionalInt.of(1), OptionalInt.empty()),
                sg("workers", null, OptionalInt.empty(), OptionalInt.empty()),
                sg("w-a", "workers", OptionalInt.of(2), OptionalInt.empty()),
                sg("w-b", "workers", OptionalInt.empty(), OptionalInt.empty())));
    assertThat(tree)
        .isEqualTo(
            new SubGroupSet(
                "",
                OptionalInt.of(1),
                ImmutableList.of(
                    new PodSet("leader", 1),
                    new SubGroupSet(
                        "workers",
                        OptionalInt.empty(),
                        ImmutableList.of(new PodSet("w-a", 2), new PodSet("w-b", 0))))));
    assertThat(((SubGroupSet) tree.children().get(1)).required()).isEqualTo(2);
  }

  record Bad(
      String name,
      OptionalInt minMember,
      OptionalInt minSubGroup,
      List<SubGroupDefinition> subGroups,
      String message) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Bad> bad() {
    OptionalInt none = OptionalInt.empty();
    return Stream.of(
        new Bad(
            "minMember with minSubGroup",
            OptionalInt.of(2),
            OptionalInt.of(1),
            List.of(sg("a", null, OptionalInt.of(1), none)),
            "minSubGroup: cannot be set together with minMember"),
        new Bad(
            "minSubGroup without subGroups",
            none,
            OptionalInt.of(1),
            List.of(),
            "minSubGroup: requires subGroups"),
        new Bad(
            "a duplicate name",
            none,
            none,
            List.of(sg("a", null, none, none), sg("a", null, none, none)),
            "subGroups[1].name: duplicate SubGroup name \"a\""),
        new Bad(
            "a missing parent",
            none,
            none,
            List.of(sg("a", "ghost", none, none)),
            "subGroups[0].parent: parent SubGroup \"ghost\" does not exist"),
        new Bad(
            "a cycle",
            none,
            none,
            List.of(sg("a", "b", none, none), sg("b", "a", none, none)),
            "subGroups[0].parent: SubGroup \"a\" is in a parent cycle"),
        new Bad(
            "minSubGroup on a leaf",
            none,
            none,
            List.of(sg("a", null, none, OptionalInt.of(1))),
            "subGroups[0].minSubGroup: only a SubGroup with child SubGroups can set minSubGroup"),
        new Bad(
            "minMember on an inner SubGroup",
            none,
            none,
            List.of(sg("a", null, OptionalInt.of(2), none), sg("b", "a", none, none)),
            "subGroups[0].minMember: SubGroup \"a\" has child SubGroups; set minSubGroup"
                + " instead"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("bad")
  void rejectsNamingTheField(Bad c) {
    assertThatThrownBy(() -> PodGroupShape.tree(c.minMember(), c.minSubGroup(), c.subGroups()))
        .isInstanceOf(KaiObjectException.class)
        .hasMessage(c.message());
  }

  private static SubGroupDefinition sg(
      String name, String parent, OptionalInt minMember, OptionalInt minSubGroup) {
    return new SubGroupDefinition(name, Optional.ofNullable(parent), minMember, minSubGroup);
  }
}
