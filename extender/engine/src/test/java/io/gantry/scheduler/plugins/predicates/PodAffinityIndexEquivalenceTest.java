package io.gantry.scheduler.plugins.predicates;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.scheduler.framework.fit.PodAffinityMismatch;
import io.gantry.scheduler.model.placement.Affinity;
import io.gantry.scheduler.model.placement.LabelSelector;
import io.gantry.scheduler.model.placement.LabelSelectorRequirement;
import io.gantry.scheduler.model.placement.PlacedPod;
import io.gantry.scheduler.model.placement.PodAffinityTerm;
import io.gantry.scheduler.model.placement.SelectorOperator;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * On random small clusters, pods come and go in a {@link PodAffinityIndex} while random incoming
 * pods, new ones and already placed ones, are checked against every node: the index must decide
 * exactly what the straightforward scan ({@link ScanningPodAffinity}) decides over the same pods.
 */
class PodAffinityIndexEquivalenceTest {
  private static final String ZONE = "zone";
  private static final String RACK = "rack";
  private static final String HOST = "kubernetes.io/hostname";
  private static final List<String> TOPOLOGY_KEYS = List.of(ZONE, RACK, HOST);
  private static final List<String> APPS = List.of("web", "db", "cache");
  private static final List<String> NAMESPACES = List.of("dev", "prod");

  /** A generated pod: what the index sees when it is placed, and its full affinity. */
  private record Generated(PlacedPod pod, Affinity affinity) {}

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
  void indexDecidesLikeTheScanWhilePodsComeAndGo(long seed) {
    Random random = new Random(seed);
    Map<String, ImmutableSortedMap<String, String>> nodes = randomNodes(random);
    PodAffinityIndex index = new PodAffinityIndex(new ComparisonCounter());
    Map<String, Generated> placed = new LinkedHashMap<>();
    Map<String, Integer> outcomes = new TreeMap<>();
    int selfChecks = 0;
    for (int step = 0; step < 120; step++) {
      if (placed.isEmpty() || random.nextInt(100) < 65) {
        String key = "p" + step;
        Generated pod = randomPod(random, key, randomNode(random, nodes));
        placed.put(key, pod);
        index.add(
            key, pod.pod(), nodes.getOrDefault(pod.pod().nodeName(), ImmutableSortedMap.of()));
      } else {
        String key = new ArrayList<>(placed.keySet()).get(random.nextInt(placed.size()));
        placed.remove(key);
        assertThat(index.remove(key)).isTrue();
      }
      assertThat(index.size()).isEqualTo(placed.size());
      for (int probe = 0; probe < 4; probe++) {
        Generated incoming = randomPod(random, "incoming", "none");
        compare(
            index.prepare(ns(incoming), labels(incoming), incoming.affinity()),
            incoming,
            placed,
            null,
            nodes,
            outcomes);
      }
      if (placed.isEmpty()) {
        continue;
      }
      // an already placed pod checked again: it must not count against itself
      String selfKey = new ArrayList<>(placed.keySet()).get(random.nextInt(placed.size()));
      Generated self = placed.get(selfKey);
      compare(
          index.prepare(selfKey, ns(self), labels(self), self.affinity()),
          self,
          placed,
          selfKey,
          nodes,
          outcomes);
      selfChecks++;
    }

    assertThat(selfChecks).isGreaterThan(60);
    assertThat(outcomes.keySet())
        .containsExactly(
            "EXISTING_POD_ANTI_AFFINITY_CONFLICT",
            "POD_AFFINITY_UNSATISFIED",
            "POD_ANTI_AFFINITY_CONFLICT",
            "pass");
  }

  private static void compare(
      PreparedPodAffinity prepared,
      Generated incoming,
      Map<String, Generated> placed,
      String excludedKey,
      Map<String, ImmutableSortedMap<String, String>> nodes,
      Map<String, Integer> outcomes) {
    List<PlacedPod> others = new ArrayList<>();
    placed.forEach(
        (key, pod) -> {
          if (!key.equals(excludedKey)) {
            others.add(pod.pod());
          }
        });
    ScanningPodAffinity oracle =
        ScanningPodAffinity.scan(
            ns(incoming),
            labels(incoming),
            incoming.affinity(),
            others,
            name -> nodes.getOrDefault(name, ImmutableSortedMap.of()),
            new ScanningPodAffinity.Comparisons());
    assertThat(prepared.passesEveryNode())
        .as("passesEveryNode for %s", incoming)
        .isEqualTo(oracle.passesEveryNode());
    for (Map.Entry<String, ImmutableSortedMap<String, String>> node : nodes.entrySet()) {
      Optional<PodAffinityMismatch> expected = oracle.check(node.getValue());
      assertThat(prepared.check(node.getValue()))
          .as("%s on %s among %s", incoming, node.getKey(), others)
          .isEqualTo(expected);
      outcomes.merge(expected.map(e -> e.kind().name()).orElse("pass"), 1, Integer::sum);
    }
  }

  private static Map<String, ImmutableSortedMap<String, String>> randomNodes(Random random) {
    Map<String, ImmutableSortedMap<String, String>> nodes = new LinkedHashMap<>();
    for (int i = 0; i < 6; i++) {
      String name = "n" + i;
      ImmutableSortedMap.Builder<String, String> labels = ImmutableSortedMap.naturalOrder();
      labels.put(HOST, name);
      if (i != 5) {
        labels.put(ZONE, i < 3 ? "a" : "b");
      }
      if (random.nextBoolean()) {
        labels.put(RACK, "r" + random.nextInt(2));
      }
      nodes.put(name, labels.build());
    }
    return nodes;
  }

  private static String randomNode(
      Random random, Map<String, ImmutableSortedMap<String, String>> nodes) {
    // now and then a pod on a node the snapshot does not know: it is in no topology domain
    return random.nextInt(12) == 0 ? "gone" : "n" + random.nextInt(nodes.size());
  }

  private static Generated randomPod(Random random, String name, String node) {
    String namespace = pick(random, NAMESPACES);
    ImmutableSortedMap.Builder<String, String> labels = ImmutableSortedMap.naturalOrder();
    if (random.nextInt(5) != 0) {
      labels.put("app", pick(random, APPS));
    }
    if (random.nextBoolean()) {
      labels.put("tier", random.nextBoolean() ? "front" : "back");
    }
    List<PodAffinityTerm> affinity = randomTerms(random, random.nextInt(4) == 0 ? 2 : 1, 3);
    List<PodAffinityTerm> anti = randomTerms(random, 2, 3);
    return new Generated(
        new PlacedPod(namespace, name, labels.build(), node, anti),
        new Affinity(ImmutableList.of(), affinity, anti));
  }

  /** Up to {@code max} terms, each present with probability 1 in {@code oneIn}. */
  private static List<PodAffinityTerm> randomTerms(Random random, int max, int oneIn) {
    List<PodAffinityTerm> terms = new ArrayList<>();
    for (int i = 0; i < max; i++) {
      if (random.nextInt(oneIn) == 0) {
        terms.add(randomTerm(random));
      }
    }
    return terms;
  }

  private static PodAffinityTerm randomTerm(Random random) {
    String app = pick(random, APPS);
    String other = pick(random, APPS);
    LabelSelector selector =
        switch (random.nextInt(8)) {
          case 0, 1 -> LabelSelector.matchLabels(ImmutableMap.of("app", app));
          case 2 -> LabelSelector.matchLabels(ImmutableMap.of("app", app, "tier", "back"));
          case 3 ->
              expressions(LabelSelectorRequirement.of("app", SelectorOperator.IN, app, other));
          case 4 -> expressions(LabelSelectorRequirement.of("app", SelectorOperator.NOT_IN, app));
          case 5 -> expressions(LabelSelectorRequirement.of("tier", SelectorOperator.EXISTS));
          case 6 ->
              expressions(LabelSelectorRequirement.of("tier", SelectorOperator.DOES_NOT_EXIST));
          default -> LabelSelector.everything();
        };
    List<String> namespaces =
        switch (random.nextInt(5)) {
          case 0 -> List.of("dev");
          case 1 -> List.of("dev", "prod");
          default -> List.of();
        };
    return new PodAffinityTerm(selector, namespaces, pick(random, TOPOLOGY_KEYS));
  }

  private static LabelSelector expressions(LabelSelectorRequirement requirement) {
    return new LabelSelector(ImmutableSortedMap.of(), ImmutableList.of(requirement));
  }

  private static String ns(Generated pod) {
    return pod.pod().namespace();
  }

  private static Map<String, String> labels(Generated pod) {
    return pod.pod().labels();
  }

  private static <T> T pick(Random random, List<T> values) {
    return values.get(random.nextInt(values.size()));
  }
}
