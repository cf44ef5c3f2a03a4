package io.gantry.scheduler.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.scheduler.framework.PluginHooks;
import io.gantry.scheduler.framework.SubGroupProgress;
import io.gantry.scheduler.model.PodSet;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * kai-reference §4.4 subgrouporder: unsatisfied before satisfied (unsatisfied among themselves
 * equal); among satisfied, required (threshold > 0) before optional; two optional: fewer allocated
 * first; else lower allocated/threshold first.
 */
class SubGroupOrderPluginTest {
  record Case(String name, SubGroupProgress a, SubGroupProgress b, int expectedSign) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case("unsatisfied before satisfied", progress("a", 1, 2), progress("b", 2, 2), -1),
        new Case(
            "satisfied after unsatisfied even when far ahead",
            progress("a", 9, 1),
            progress("b", 0, 4),
            1),
        new Case(
            "two unsatisfied are equal whatever their progress",
            progress("a", 0, 4),
            progress("b", 3, 4),
            0),
        new Case(
            "satisfied required before satisfied optional",
            progress("a", 5, 2),
            progress("b", 0, 0),
            -1),
        new Case(
            "satisfied optional after satisfied required",
            progress("a", 0, 0),
            progress("b", 3, 3),
            1),
        new Case(
            "two optional: fewer allocated first", progress("a", 1, 0), progress("b", 3, 0), -1),
        new Case(
            "two optional with as many allocated are equal",
            progress("a", 2, 0),
            progress("b", 2, 0),
            0),
        new Case(
            "two required: lower allocated/threshold first",
            progress("a", 3, 2),
            progress("b", 2, 1),
            -1),
        new Case(
            "two required with the same ratio are equal",
            progress("a", 4, 2),
            progress("b", 2, 1),
            0));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void ordersSiblings(Case c) {
    SubGroupOrderPlugin plugin = new SubGroupOrderPlugin();

    assertThat(Integer.signum(plugin.compareSubGroups(c.a(), c.b()))).isEqualTo(c.expectedSign());
    assertThat(Integer.signum(plugin.compareSubGroups(c.b(), c.a()))).isEqualTo(-c.expectedSign());
  }

  @Test
  void tiesFallBackToSubGroupName() {
    PluginHooks hooks = new PluginHooks(List.of(new SubGroupOrderPlugin()));
    List<SubGroupProgress> members =
        new ArrayList<>(
            List.of(
                progress("workers", 4, 2),
                progress("ps", 0, 1),
                progress("launcher", 1, 1),
                progress("driver", 0, 2),
                progress("extra", 0, 0)));

    members.sort(hooks::compareSubGroups);

    assertThat(members)
        .extracting(m -> m.node().name())
        .containsExactly("driver", "ps", "launcher", "workers", "extra");
  }

  /** A PodSet with {@code allocated} active-allocated pods and minMember {@code threshold}. */
  private static SubGroupProgress progress(String name, long allocated, int threshold) {
    return new SubGroupProgress(
        new PodSet(name, threshold), allocated >= threshold, allocated, threshold);
  }
}
