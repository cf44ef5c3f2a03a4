package io.gantry.scheduler.actions;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link KaiBoundedJobHeap}: KAI's bounded job heap (Go's {@code container/heap}, then removing
 * index N) keeps these jobs. Jobs are numbers here, higher first, as higher priority is.
 */
class KaiBoundedJobHeapTest {
  private static final Comparator<Integer> HIGHER_FIRST = Comparator.reverseOrder();

  record Case(String name, List<Integer> pushed, int capacity, List<Integer> kept) {
    @Override
    public String toString() {
      return name;
    }
  }

  static List<Case> cases() {
    return List.of(
        new Case("under the bound every job stays", List.of(10, 20), 2, List.of(20, 10)),
        new Case(
            "the job at index N is dropped, here the middle one: 20 was sifted to the end",
            List.of(10, 20, 30),
            2,
            List.of(30, 10)),
        new Case(
            "pushed best first, the newest is at index N and is dropped",
            List.of(30, 20, 10),
            2,
            List.of(30, 20)),
        new Case("a bound of one keeps the best job", List.of(10, 30, 20), 1, List.of(30)),
        new Case(
            "each push past the bound drops what ended at index N: 1, then 3 while 2 stays",
            List.of(1, 2, 3, 4, 5),
            3,
            List.of(5, 4, 2)),
        new Case("a bound of zero keeps nothing", List.of(10, 20), 0, List.of()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void keepsWhatKaisHeapKeeps(Case c) {
    assertThat(KaiBoundedJobHeap.survivors(c.pushed(), HIGHER_FIRST, c.capacity()))
        .containsExactlyElementsOf(c.kept());
  }
}
