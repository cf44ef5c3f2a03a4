package io.gantry.scheduler.fairness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSortedMap;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class FairShareDividerTest {

  record Case(
      String name,
      double kValue,
      double total,
      List<DivisionInput> queues,
      ImmutableSortedMap<String, Double> expected) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case(
            "weights 1:3 split the surplus above equal quotas",
            1.0,
            16,
            List.of(
                queue("a").deserved(4).weight(1).request(16).build(),
                queue("b").deserved(4).weight(3).request(16).build()),
            shares("a", 6.0, "b", 10.0)),
        new Case(
            "children divide the parent's fair share, not its quota",
            1.0,
            16,
            List.of(
                queue("d1")
                    .deserved(8)
                    .request(20)
                    .children(
                        queue("q1a").deserved(6).request(10), queue("q1b").deserved(2).request(10))
                    .build(),
                queue("d2").deserved(8).request(0).build()),
            shares("d1", 16.0, "d2", 0.0, "q1a", 10.0, "q1b", 6.0)),
        new Case(
            "quickstart: a fractional request takes exactly its half GPU",
            1.0,
            16,
            List.of(
                queue("ai")
                    .deserved(16)
                    .request(14.5)
                    .children(
                        queue("research").deserved(8).request(8.5),
                        queue("product").deserved(8).request(6))
                    .build()),
            shares("ai", 14.5, "product", 6.0, "research", 8.5)),
        new Case(
            "higher priority bucket takes the whole surplus before a heavier lower bucket",
            1.0,
            12,
            List.of(
                queue("hi").deserved(2).priority(2).weight(1).request(20).build(),
                queue("lo").deserved(2).priority(1).weight(10).request(20).build()),
            shares("hi", 10.0, "lo", 2.0)),
        new Case(
            "lower bucket gets what the higher bucket cannot use",
            1.0,
            12,
            List.of(
                queue("hi").deserved(2).priority(2).request(5).build(),
                queue("lo").deserved(2).priority(1).request(20).build()),
            shares("hi", 5.0, "lo", 7.0)),
        new Case(
            "leftover units of a higher bucket are handed out before a lower bucket gets any",
            1.0,
            5,
            List.of(
                queue("hi-a").priority(2).request(10).creationOrder(1).build(),
                queue("hi-b").priority(2).request(10).creationOrder(2).build(),
                queue("hi-c").priority(2).request(10).creationOrder(3).build(),
                queue("lo").priority(1).request(10).build()),
            shares("hi-a", 2.0, "hi-b", 2.0, "hi-c", 1.0, "lo", 0.0)),
        new Case(
            "weight 0 keeps its quota but never receives surplus",
            1.0,
            12,
            List.of(
                queue("a").deserved(2).weight(0).request(10).build(),
                queue("b").deserved(2).weight(1).request(4).build()),
            shares("a", 2.0, "b", 4.0)),
        new Case(
            "limit caps the over-quota share and another round passes its excess on",
            1.0,
            16,
            List.of(
                queue("a").deserved(2).maxAllowed(5).request(20).build(),
                queue("b").deserved(2).request(20).build()),
            shares("a", 5.0, "b", 11.0)),
        new Case(
            "limit 0 is a hard cap of zero, even within quota",
            1.0,
            8,
            List.of(
                queue("a").deserved(4).maxAllowed(0).request(6).build(),
                queue("b").deserved(2).request(20).build()),
            shares("a", 0.0, "b", 8.0)),
        new Case(
            "unlimited deserved takes its request up to the amount being divided",
            1.0,
            12,
            List.of(
                queue("a").deserved(-1).request(5).build(),
                queue("b").deserved(2).request(10).build()),
            shares("a", 5.0, "b", 7.0)),
        new Case(
            "unlimited deserved is capped by the amount being divided",
            1.0,
            12,
            List.of(queue("a").deserved(-1).request(20).build()),
            shares("a", 12.0)),
        new Case(
            "deserved quotas over-commit the cluster and leave no surplus",
            1.0,
            12,
            List.of(
                queue("a").deserved(8).request(10).build(),
                queue("b").deserved(8).request(10).build()),
            shares("a", 8.0, "b", 8.0)),
        new Case(
            "children's quotas over-commit a parent whose fair share is below them",
            1.0,
            4,
            List.of(
                queue("p")
                    .deserved(4)
                    .request(8)
                    .children(
                        queue("c1").deserved(4).request(4), queue("c2").deserved(4).request(4))
                    .build()),
            shares("c1", 4.0, "c2", 4.0, "p", 4.0)),
        new Case(
            "equal remainders: the two oldest of three queues get the two spare units",
            1.0,
            2,
            List.of(
                queue("q-a").request(5).creationOrder(1).build(),
                queue("q-b").request(5).creationOrder(2).build(),
                queue("q-c").request(5).creationOrder(0).build()),
            shares("q-a", 1.0, "q-b", 0.0, "q-c", 1.0)),
        new Case(
            "equal remainders and creation: queue id breaks the tie",
            1.0,
            1,
            List.of(queue("y").request(5).build(), queue("x").request(5).build()),
            shares("x", 1.0, "y", 0.0)),
        new Case(
            "largest remainder wins a leftover unit before an older queue",
            1.0,
            3,
            // Offers 0.3, 0.9 and 1.8: floors 0, 0, 1; the 2 units left go to b (.9) and c (.8).
            List.of(
                queue("a").weight(1).request(10).creationOrder(0).build(),
                queue("b").weight(3).request(10).creationOrder(1).build(),
                queue("c").weight(6).request(10).creationOrder(2).build()),
            shares("a", 0.0, "b", 1.0, "c", 2.0)),
        new Case(
            "a leftover unit stops at the queue's requestable; the rest goes on",
            1.0,
            4.6,
            // Offers 2.3 each: floors 2, remainders .3; a then needs only .5 of the .6 left.
            List.of(queue("a").request(2.5).build(), queue("b").request(10).build()),
            shares("a", 2.5, "b", 2.1)),
        new Case(
            "usage with k=1 shifts the surplus toward the less-used queue",
            1.0,
            6,
            // W' = .5 each; share weights .5 + (.5 - .5) = .5 and .5 + (.5 - 0) = 1.
            List.of(
                queue("busy").usage(0.5).request(20).build(),
                queue("idle").usage(0).request(20).build()),
            shares("busy", 2.0, "idle", 4.0)),
        new Case(
            "usage beyond what the weight allows floors the share weight at zero",
            1.0,
            6,
            // busy: .5 + (.5 - 1) = 0, so idle takes the whole surplus.
            List.of(
                queue("busy").usage(1).request(20).build(),
                queue("idle").usage(0).request(20).build()),
            shares("busy", 0.0, "idle", 6.0)),
        new Case(
            "k=0 ignores usage",
            0.0,
            6,
            List.of(
                queue("busy").usage(0.5).request(20).build(),
                queue("idle").usage(0).request(20).build()),
            shares("busy", 3.0, "idle", 3.0)),
        new Case(
            "negative k is treated as 0",
            -2.0,
            6,
            List.of(
                queue("busy").usage(0.5).request(20).build(),
                queue("idle").usage(0).request(20).build()),
            shares("busy", 3.0, "idle", 3.0)),
        new Case(
            "request below quota: the fair share is the request and the rest flows on",
            1.0,
            16,
            List.of(
                queue("a").deserved(8).request(3).build(),
                queue("b").deserved(4).request(20).build()),
            shares("a", 3.0, "b", 13.0)),
        new Case(
            "decimal quotas leave no floating-point residue",
            1.0,
            1.3,
            // 1.3 - 0.1 - 0.2 is 0.9999999999999999 in doubles; it must still be one whole unit.
            List.of(
                queue("a").deserved(0.1).request(10).build(),
                queue("b").deserved(0.2).request(0.2).build()),
            shares("a", 1.1, "b", 0.2)),
        new Case(
            "nothing to divide: unlimited deserved gets nothing, quotas still over-commit",
            1.0,
            0,
            List.of(
                queue("a").deserved(-1).request(4).build(),
                queue("b").deserved(2).request(4).build()),
            shares("a", 0.0, "b", 2.0)),
        new Case(
            "a three-level tree divides each parent's share again",
            1.0,
            10,
            // Teams split 10: quotas 2 + 2, then offers 1.5 / 4.5; team-2 is satisfied at 4, so a
            // second round gives team-1 the 3 that are left.
            List.of(
                queue("org")
                    .deserved(-1)
                    .request(12)
                    .children(
                        queue("dept")
                            .deserved(6)
                            .request(12)
                            .children(
                                queue("team-1").deserved(2).request(8),
                                queue("team-2").deserved(2).request(4).weight(3)))
                    .build()),
            shares("dept", 10.0, "org", 10.0, "team-1", 6.0, "team-2", 4.0)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void divides(Case c) {
    FairShareDivider divider = new FairShareDivider(c.kValue());

    assertThat(divider.divide(c.total(), c.queues())).isEqualTo(c.expected());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void resultIsTheSameWhateverOrderTheQueuesAreListedIn(Case c) {
    FairShareDivider divider = new FairShareDivider(c.kValue());
    List<DivisionInput> reversed = new ArrayList<>(c.queues());
    Collections.reverse(reversed);

    assertThat(divider.divide(c.total(), reversed))
        .isEqualTo(divider.divide(c.total(), c.queues()));
  }

  @Test
  void rejectsAQueueIdThatRepeatsAnywhereInTheTree() {
    List<DivisionInput> queues =
        List.of(
            queue("a").request(1).children(queue("dup").request(1)).build(),
            queue("dup").request(1).build());

    assertThatThrownBy(() -> new FairShareDivider(1).divide(4, queues))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("queue id dup appears twice");
  }

  @Test
  void rejectsANegativeTotal() {
    assertThatThrownBy(() -> new FairShareDivider(1).divide(-1, List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("totalAmount must be finite and >= 0, was -1.0");
  }

  @Test
  void rejectsANegativeQuotaOtherThanUnlimited() {
    assertThatThrownBy(() -> queue("a").deserved(-2).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("queue a: deserved must be -1 or finite and >= 0, was -2.0");
  }

  @Test
  void rejectsANaNKValue() {
    assertThatThrownBy(() -> new FairShareDivider(Double.NaN))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("kValue must be a finite number, was NaN");
  }

  private static ImmutableSortedMap<String, Double> shares(Object... idsAndShares) {
    ImmutableSortedMap.Builder<String, Double> builder = ImmutableSortedMap.naturalOrder();
    for (int i = 0; i < idsAndShares.length; i += 2) {
      builder.put((String) idsAndShares[i], (Double) idsAndShares[i + 1]);
    }
    return builder.build();
  }

  private static QueueBuilder queue(String id) {
    return new QueueBuilder(id);
  }

  /** Defaults: no quota, no limit, weight 1, priority 0, no request, no usage, oldest. */
  private static final class QueueBuilder {
    private final String id;
    private double deserved;
    private double maxAllowed = DivisionInput.UNLIMITED;
    private double weight = 1;
    private int priority;
    private double request;
    private double usage;
    private long creationOrder;
    private ImmutableList<DivisionInput> children = ImmutableList.of();

    QueueBuilder(String id) {
      this.id = id;
    }

    QueueBuilder deserved(double value) {
      deserved = value;
      return this;
    }

    QueueBuilder maxAllowed(double value) {
      maxAllowed = value;
      return this;
    }

    QueueBuilder weight(double value) {
      weight = value;
      return this;
    }

    QueueBuilder priority(int value) {
      priority = value;
      return this;
    }

    QueueBuilder request(double value) {
      request = value;
      return this;
    }

    QueueBuilder usage(double value) {
      usage = value;
      return this;
    }

    QueueBuilder creationOrder(long value) {
      creationOrder = value;
      return this;
    }

    QueueBuilder children(QueueBuilder... builders) {
      ImmutableList.Builder<DivisionInput> built = ImmutableList.builder();
      for (QueueBuilder child : builders) {
        built.add(child.build());
      }
      children = built.build();
      return this;
    }

    DivisionInput build() {
      return new DivisionInput(
          id, deserved, maxAllowed, weight, priority, request, usage, creationOrder, children);
    }
  }
}
