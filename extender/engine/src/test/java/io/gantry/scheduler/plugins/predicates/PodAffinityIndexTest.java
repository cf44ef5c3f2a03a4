package io.gantry.scheduler.plugins.predicates;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.scheduler.framework.fit.ExistingPodAntiAffinityConflict;
import io.gantry.scheduler.framework.fit.PodAntiAffinityConflict;
import io.gantry.scheduler.model.placement.Affinity;
import io.gantry.scheduler.model.placement.LabelSelector;
import io.gantry.scheduler.model.placement.LabelSelectorRequirement;
import io.gantry.scheduler.model.placement.PlacedPod;
import io.gantry.scheduler.model.placement.PodAffinityTerm;
import io.gantry.scheduler.model.placement.SelectorOperator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What {@link PodAffinityIndex} compares: only the pods that carry a selection's guard, only the
 * selections a new pod's labels file it under, never a pod against itself. Decisions themselves are
 * checked against the scan in {@link PodAffinityIndexEquivalenceTest}.
 */
class PodAffinityIndexTest {
  private static final String HOST = "kubernetes.io/hostname";
  private static final Map<String, String> N1 = ImmutableMap.of(HOST, "n1");

  record Case(String name, PodAffinityTerm antiAffinity, long comparisons) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case("matchLabels app=web: the 4 web pods", term(labels("app", "web")), 4),
        new Case(
            "matchLabels app=web, tier=back: the 4 web pods",
            term(labels("app", "web", "tier", "back")),
            4),
        new Case(
            "In app [web, db]: the 4 web and 3 db pods",
            term(expression("app", SelectorOperator.IN, "web", "db")),
            7),
        new Case(
            "Exists tier: the 3 pods with a tier",
            term(expression("tier", SelectorOperator.EXISTS)),
            3),
        new Case(
            "NotIn app [web]: every pod of the namespace",
            term(expression("app", SelectorOperator.NOT_IN, "web")),
            900),
        new Case(
            "everything in prod: every pod of prod",
            new PodAffinityTerm(LabelSelector.everything(), List.of("prod"), HOST),
            100));
  }

  /**
   * 1,000 pods: 4 labelled app=web, 3 app=db, the rest each with its own app; 3 with a tier; 900 in
   * dev, 100 in prod.
   */
  private static PodAffinityIndex thousandPods(ComparisonCounter comparisons) {
    PodAffinityIndex index = new PodAffinityIndex(comparisons);
    for (int i = 0; i < 1000; i++) {
      ImmutableSortedMap.Builder<String, String> labels = ImmutableSortedMap.naturalOrder();
      labels.put("app", i < 4 ? "web" : i < 7 ? "db" : "p" + i);
      if (i % 10 == 0 && i < 30) {
        labels.put("tier", "back");
      }
      index.add("p" + i, pod(i < 900 ? "dev" : "prod", labels.build()), N1);
    }
    return index;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void aSelectionIsFilledFromThePodsMeetingItsGuard(Case c) {
    ComparisonCounter comparisons = new ComparisonCounter();
    PodAffinityIndex index = thousandPods(comparisons);
    long afterAdding = comparisons.count();

    index.prepare("dev", ImmutableMap.of("app", "new"), antiAffinity(c.antiAffinity()));

    assertThat(List.of(afterAdding, comparisons.count())).containsExactly(0L, c.comparisons());
  }

  @Test
  void aNewPodIsComparedOnlyWithTheSelectionsItsLabelsFileItUnder() {
    ComparisonCounter comparisons = new ComparisonCounter();
    PodAffinityIndex index = thousandPods(comparisons);
    index.prepare("dev", ImmutableMap.of(), antiAffinity(term(labels("app", "web"))));
    index.prepare(
        "dev",
        ImmutableMap.of(),
        antiAffinity(term(expression("app", SelectorOperator.NOT_IN, "web"))));
    long before = comparisons.count();

    index.add("web-new", pod("dev", ImmutableSortedMap.of("app", "web")), N1);
    long web = comparisons.count() - before;
    index.add("other-new", pod("prod", ImmutableSortedMap.of("app", "other")), N1);
    long other = comparisons.count() - before - web;
    index.remove("web-new");

    // web-new: the app=web selection and the NotIn selection filed under dev; other-new: neither
    // (wrong label, wrong namespace); removing compares nothing.
    assertThat(List.of(web, other, comparisons.count() - before)).containsExactly(2L, 0L, 2L);
  }

  @Test
  void aPlacedPodIsLeftOutOfItsOwnCheck() {
    PodAffinityIndex index = new PodAffinityIndex(new ComparisonCounter());
    Affinity awayFromWeb = antiAffinity(term(labels("app", "web")));
    index.add(
        "web-0",
        new PlacedPod(
            "dev",
            "web-0",
            ImmutableSortedMap.of("app", "web"),
            "n1",
            awayFromWeb.requiredPodAntiAffinity()),
        N1);
    Map<String, String> web = ImmutableMap.of("app", "web");

    assertThat(index.prepare("web-0", "dev", web, awayFromWeb).check(N1)).isEmpty();
    assertThat(index.prepare("web-1", "dev", web, awayFromWeb).check(N1))
        .isEqualTo(Optional.of(new PodAntiAffinityConflict()));
    assertThat(index.prepare("dev", web, Affinity.none()).check(N1))
        .isEqualTo(Optional.of(new ExistingPodAntiAffinityConflict()));
  }

  @Test
  void aCheckPreparedBeforeTheIndexChangedRefusesToAnswer() {
    PodAffinityIndex index = new PodAffinityIndex(new ComparisonCounter());
    PreparedPodAffinity prepared =
        index.prepare("dev", ImmutableMap.of(), antiAffinity(term(labels("app", "web"))));
    index.add("web-0", pod("dev", ImmutableSortedMap.of("app", "web")), N1);

    assertThatThrownBy(() -> prepared.check(N1))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("the placed pods changed since this check was prepared");
  }

  @Test
  void keysAreUnique() {
    PodAffinityIndex index = new PodAffinityIndex(new ComparisonCounter());
    index.add("p", pod("dev", ImmutableSortedMap.of()), N1);

    assertThatThrownBy(() -> index.add("p", pod("dev", ImmutableSortedMap.of()), N1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("pod p is already indexed");
    assertThat(List.of(index.remove("p"), index.remove("p"))).containsExactly(true, false);
    assertThat(index.size()).isZero();
  }

  private static PlacedPod pod(String namespace, ImmutableSortedMap<String, String> labels) {
    return new PlacedPod(namespace, "pod", labels, "n1", ImmutableList.of());
  }

  private static Affinity antiAffinity(PodAffinityTerm term) {
    return new Affinity(List.of(), List.of(), List.of(term));
  }

  private static PodAffinityTerm term(LabelSelector selector) {
    return PodAffinityTerm.inOwnNamespace(selector, HOST);
  }

  private static LabelSelector labels(String... keysAndValues) {
    ImmutableMap.Builder<String, String> labels = ImmutableMap.builder();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      labels.put(keysAndValues[i], keysAndValues[i + 1]);
    }
    return LabelSelector.matchLabels(labels.build());
  }

  private static LabelSelector expression(String key, SelectorOperator operator, String... values) {
    return new LabelSelector(
        ImmutableSortedMap.of(),
        ImmutableList.of(LabelSelectorRequirement.of(key, operator, values)));
  }
}
