package io.gantry.scheduler.plugins.predicates;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSortedMap;
import com.google.common.collect.Lists;
import io.gantry.scheduler.framework.fit.ExistingPodAntiAffinityConflict;
import io.gantry.scheduler.framework.fit.PodAffinityMismatch;
import io.gantry.scheduler.framework.fit.PodAffinityUnsatisfied;
import io.gantry.scheduler.framework.fit.PodAntiAffinityConflict;
import io.gantry.scheduler.model.placement.Affinity;
import io.gantry.scheduler.model.placement.LabelSelector;
import io.gantry.scheduler.model.placement.PlacedPod;
import io.gantry.scheduler.model.placement.PodAffinityTerm;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class PodAffinityRuleTest {
  private static final PodAffinityMismatch AFFINITY_RULES_NOT_MATCH = new PodAffinityUnsatisfied();
  private static final PodAffinityMismatch ANTI_AFFINITY_RULES_NOT_MATCH =
      new PodAntiAffinityConflict();
  private static final PodAffinityMismatch EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH =
      new ExistingPodAntiAffinityConflict();
  private static final String ZONE = "topology.kubernetes.io/zone";
  private static final String HOST = "kubernetes.io/hostname";

  // n1 and n2 share zone a, n3 is alone in zone b, n4 has no zone label at all.
  private static final ImmutableMap<String, ImmutableMap<String, String>> NODES =
      ImmutableMap.of(
          "n1", ImmutableMap.of(ZONE, "a", HOST, "n1"),
          "n2", ImmutableMap.of(ZONE, "a", HOST, "n2"),
          "n3", ImmutableMap.of(ZONE, "b", HOST, "n3"),
          "n4", ImmutableMap.of(HOST, "n4"));

  record Incoming(String namespace, Map<String, String> labels, Affinity affinity) {}

  record Case(
      String name,
      Incoming incoming,
      List<PlacedPod> placed,
      String node,
      Optional<PodAffinityMismatch> expected) {
    @Override
    public String toString() {
      return name;
    }
  }

  /** A view over fixed nodes and pods that counts how often the pods are scanned. */
  private static final class FakeCluster implements PlacedPodsView {
    private final List<PlacedPod> pods;
    private int scans;

    FakeCluster(List<PlacedPod> pods) {
      this.pods = ImmutableList.copyOf(pods);
    }

    @Override
    public Iterable<PlacedPod> placedPods() {
      scans++;
      return pods;
    }

    @Override
    public Map<String, String> nodeLabels(String nodeName) {
      return NODES.getOrDefault(nodeName, ImmutableMap.of());
    }
  }

  static Stream<Case> cases() {
    Incoming plain = incoming("dev", app("web"), Affinity.none());
    Incoming nearDbByZone = incoming("dev", app("web"), affinity(terms(term(ZONE, "db")), terms()));
    Incoming selfAffineByZone =
        incoming("dev", app("cache"), affinity(terms(term(ZONE, "cache")), terms()));
    Incoming awayFromWebByHost =
        incoming("dev", app("web"), affinity(terms(), terms(term(HOST, "web"))));
    Incoming awayFromWebByZone =
        incoming("dev", app("web"), affinity(terms(), terms(term(ZONE, "web"))));
    PlacedPod dbOnN1 = pod("db-0", "dev", "n1", app("db"));
    PlacedPod webOnN1 = pod("web-0", "dev", "n1", app("web"));
    PlacedPod repelsWebByZoneOnN1 = pod("lonely-0", "dev", "n1", app("lonely"), term(ZONE, "web"));
    return Stream.of(
        new Case("no terms, empty cluster", plain, pods(), "n1", pass()),
        new Case("no terms, busy cluster", plain, pods(dbOnN1, webOnN1), "n1", pass()),
        // affinity
        new Case("affinity satisfied on the same node", nearDbByZone, pods(dbOnN1), "n1", pass()),
        new Case(
            "affinity satisfied elsewhere in the same zone",
            nearDbByZone,
            pods(dbOnN1),
            "n2",
            pass()),
        new Case(
            "affinity fails in another zone",
            nearDbByZone,
            pods(dbOnN1),
            "n3",
            fail(AFFINITY_RULES_NOT_MATCH)),
        new Case(
            "affinity fails on a node missing the topology label",
            nearDbByZone,
            pods(dbOnN1),
            "n4",
            fail(AFFINITY_RULES_NOT_MATCH)),
        new Case(
            "affinity fails when no pod matches and the pod does not match itself",
            nearDbByZone,
            pods(),
            "n1",
            fail(AFFINITY_RULES_NOT_MATCH)),
        new Case(
            "a matching pod on a node without the topology label is in no domain",
            nearDbByZone,
            pods(pod("db-0", "dev", "n4", app("db"))),
            "n1",
            fail(AFFINITY_RULES_NOT_MATCH)),
        new Case(
            "a matching pod on an unknown node is in no domain",
            nearDbByZone,
            pods(pod("db-0", "dev", "gone", app("db"))),
            "n1",
            fail(AFFINITY_RULES_NOT_MATCH)),
        new Case(
            "namespaces default to the incoming pod's namespace",
            nearDbByZone,
            pods(pod("db-0", "prod", "n1", app("db"))),
            "n2",
            fail(AFFINITY_RULES_NOT_MATCH)),
        new Case(
            "explicit namespaces replace the default",
            incoming(
                "dev",
                app("web"),
                affinity(
                    terms(new PodAffinityTerm(selector("db"), ImmutableList.of("prod"), ZONE)),
                    terms())),
            pods(pod("db-0", "prod", "n1", app("db"))),
            "n2",
            pass()),
        new Case(
            "every affinity term must be met by the same pod",
            incoming(
                "dev",
                app("web"),
                affinity(
                    terms(term(ZONE, "db"), term(HOST, "db"), termTier(ZONE, "back")), terms())),
            pods(dbOnN1, pod("api-0", "dev", "n1", ImmutableMap.of("tier", "back"))),
            "n1",
            fail(AFFINITY_RULES_NOT_MATCH)),
        new Case(
            "one pod meeting every affinity term satisfies them",
            incoming(
                "dev",
                app("web"),
                affinity(terms(term(ZONE, "db"), termTier(HOST, "back")), terms())),
            pods(pod("db-0", "dev", "n1", ImmutableMap.of("app", "db", "tier", "back"))),
            "n1",
            pass()),
        new Case(
            "each affinity term's own domain must hold the pod",
            incoming(
                "dev", app("web"), affinity(terms(term(ZONE, "db"), term(HOST, "db")), terms())),
            pods(dbOnN1),
            "n2",
            fail(AFFINITY_RULES_NOT_MATCH)),
        // the first pod of a self-affine group
        new Case("self-affine first pod may land", selfAffineByZone, pods(), "n3", pass()),
        new Case(
            "self-affine first pod still needs the topology label",
            selfAffineByZone,
            pods(),
            "n4",
            fail(AFFINITY_RULES_NOT_MATCH)),
        new Case(
            "self-affine pod follows the existing group",
            selfAffineByZone,
            pods(pod("cache-0", "dev", "n1", app("cache"))),
            "n2",
            pass()),
        new Case(
            "self-affine pod may not start a second domain",
            selfAffineByZone,
            pods(pod("cache-0", "dev", "n1", app("cache"))),
            "n3",
            fail(AFFINITY_RULES_NOT_MATCH)),
        new Case(
            "self-affine exception ignores group members in other namespaces",
            selfAffineByZone,
            pods(pod("cache-0", "prod", "n1", app("cache"))),
            "n3",
            pass()),
        // the incoming pod's anti-affinity
        new Case(
            "anti-affinity forbids the node holding a match",
            awayFromWebByHost,
            pods(webOnN1),
            "n1",
            fail(ANTI_AFFINITY_RULES_NOT_MATCH)),
        new Case(
            "anti-affinity by host allows a neighbour",
            awayFromWebByHost,
            pods(webOnN1),
            "n2",
            pass()),
        new Case(
            "anti-affinity by zone forbids the whole zone",
            awayFromWebByZone,
            pods(webOnN1),
            "n2",
            fail(ANTI_AFFINITY_RULES_NOT_MATCH)),
        new Case(
            "anti-affinity by zone allows another zone",
            awayFromWebByZone,
            pods(webOnN1),
            "n3",
            pass()),
        new Case(
            "anti-affinity ignores a node missing the topology label",
            awayFromWebByZone,
            pods(webOnN1),
            "n4",
            pass()),
        new Case(
            "anti-affinity ignores matches on nodes missing the topology label",
            awayFromWebByZone,
            pods(pod("web-0", "dev", "n4", app("web"))),
            "n1",
            pass()),
        new Case(
            "anti-affinity ignores other namespaces by default",
            awayFromWebByZone,
            pods(pod("web-0", "prod", "n1", app("web"))),
            "n2",
            pass()),
        // existing pods' anti-affinity (symmetry)
        new Case(
            "existing pod's anti-affinity forbids its zone",
            plain,
            pods(repelsWebByZoneOnN1),
            "n2",
            fail(EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH)),
        new Case(
            "existing pod's anti-affinity allows another zone",
            plain,
            pods(repelsWebByZoneOnN1),
            "n3",
            pass()),
        new Case(
            "existing pod's anti-affinity does not reach a node without the label",
            plain,
            pods(repelsWebByZoneOnN1),
            "n4",
            pass()),
        new Case(
            "existing pod on a node without the label repels nobody",
            plain,
            pods(pod("lonely-0", "dev", "n4", app("lonely"), term(ZONE, "web"))),
            "n1",
            pass()),
        new Case(
            "existing pod's terms default to its own namespace",
            plain,
            pods(pod("lonely-0", "prod", "n1", app("lonely"), term(ZONE, "web"))),
            "n2",
            pass()),
        new Case(
            "existing pod's terms may name the incoming pod's namespace",
            plain,
            pods(
                pod(
                    "lonely-0",
                    "prod",
                    "n1",
                    app("lonely"),
                    new PodAffinityTerm(selector("web"), ImmutableList.of("dev"), ZONE))),
            "n2",
            fail(EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH)),
        new Case(
            "existing pod's anti-affinity that does not match the incoming pod",
            incoming("dev", app("api"), Affinity.none()),
            pods(repelsWebByZoneOnN1),
            "n2",
            pass()),
        // which failure wins
        new Case(
            "affinity is reported before the others",
            incoming(
                "dev", app("web"), affinity(terms(term(ZONE, "db")), terms(term(ZONE, "web")))),
            pods(dbOnN1, webOnN1, pod("lonely-0", "dev", "n3", app("lonely"), term(ZONE, "web"))),
            "n3",
            fail(AFFINITY_RULES_NOT_MATCH)),
        new Case(
            "anti-affinity is reported before existing pods' anti-affinity",
            awayFromWebByZone,
            pods(webOnN1, repelsWebByZoneOnN1),
            "n2",
            fail(ANTI_AFFINITY_RULES_NOT_MATCH)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void check(Case c) {
    Incoming in = c.incoming();
    Map<String, String> nodeLabels = NODES.get(c.node());

    PreparedPodAffinity prepared =
        PodAffinityRule.prepare(
            in.namespace(), in.labels(), in.affinity(), new FakeCluster(c.placed()));
    assertThat(prepared.check(nodeLabels)).isEqualTo(c.expected());

    // The outcome must not depend on the order the snapshot lists pods in.
    FakeCluster reversed = new FakeCluster(Lists.reverse(c.placed()));
    assertThat(
            PodAffinityRule.check(in.namespace(), in.labels(), in.affinity(), nodeLabels, reversed))
        .isEqualTo(c.expected());
  }

  @Test
  void preparedCheckScansPodsOncePerIncomingPod() {
    FakeCluster cluster =
        new FakeCluster(
            pods(pod("db-0", "dev", "n1", app("db")), pod("web-0", "dev", "n3", app("web"))));
    PreparedPodAffinity prepared =
        PodAffinityRule.prepare(
            "dev",
            app("web"),
            affinity(terms(term(ZONE, "db")), terms(term(HOST, "web"))),
            cluster);

    ImmutableMap.Builder<String, Optional<PodAffinityMismatch>> outcomes = ImmutableMap.builder();
    NODES.forEach((name, labels) -> outcomes.put(name, prepared.check(labels)));

    assertThat(cluster.scans).isEqualTo(1);
    assertThat(outcomes.build())
        .isEqualTo(
            ImmutableMap.of(
                "n1", pass(),
                "n2", pass(),
                "n3", fail(AFFINITY_RULES_NOT_MATCH),
                "n4", fail(AFFINITY_RULES_NOT_MATCH)));
  }

  @Test
  void passesEveryNodeOnlyWhenNothingConstrains() {
    FakeCluster quiet = new FakeCluster(pods(pod("db-0", "dev", "n1", app("db"))));
    assertThat(PodAffinityRule.prepare("dev", app("web"), Affinity.none(), quiet).passesEveryNode())
        .isTrue();

    FakeCluster repelling =
        new FakeCluster(pods(pod("x-0", "dev", "n1", app("x"), term(ZONE, "web"))));
    assertThat(
            PodAffinityRule.prepare("dev", app("web"), Affinity.none(), repelling)
                .passesEveryNode())
        .isFalse();
    assertThat(
            PodAffinityRule.prepare("dev", app("api"), Affinity.none(), repelling)
                .passesEveryNode())
        .isTrue();

    Affinity selfAffine = affinity(terms(term(ZONE, "web")), terms());
    assertThat(PodAffinityRule.prepare("dev", app("web"), selfAffine, quiet).passesEveryNode())
        .isFalse();
  }

  @Test
  void failuresKnowWhetherEvictionCanHelp() {
    assertThat(AFFINITY_RULES_NOT_MATCH.resolvableByEviction()).isFalse();
    assertThat(ANTI_AFFINITY_RULES_NOT_MATCH.resolvableByEviction()).isTrue();
    assertThat(EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH.resolvableByEviction()).isTrue();
  }

  private static Optional<PodAffinityMismatch> pass() {
    return Optional.empty();
  }

  private static Optional<PodAffinityMismatch> fail(PodAffinityMismatch failure) {
    return Optional.of(failure);
  }

  private static Incoming incoming(
      String namespace, Map<String, String> labels, Affinity affinity) {
    return new Incoming(namespace, labels, affinity);
  }

  private static Map<String, String> app(String app) {
    return ImmutableMap.of("app", app);
  }

  private static LabelSelector selector(String app) {
    return LabelSelector.matchLabels(app(app));
  }

  private static PodAffinityTerm term(String topologyKey, String app) {
    return PodAffinityTerm.inOwnNamespace(selector(app), topologyKey);
  }

  private static PodAffinityTerm termTier(String topologyKey, String tier) {
    return PodAffinityTerm.inOwnNamespace(
        LabelSelector.matchLabels(ImmutableMap.of("tier", tier)), topologyKey);
  }

  private static List<PodAffinityTerm> terms(PodAffinityTerm... terms) {
    return ImmutableList.copyOf(terms);
  }

  private static Affinity affinity(List<PodAffinityTerm> affinity, List<PodAffinityTerm> anti) {
    return new Affinity(ImmutableList.of(), affinity, anti);
  }

  private static List<PlacedPod> pods(PlacedPod... pods) {
    return ImmutableList.copyOf(pods);
  }

  private static PlacedPod pod(
      String name,
      String namespace,
      String nodeName,
      Map<String, String> labels,
      PodAffinityTerm... antiAffinity) {
    return new PlacedPod(
        namespace,
        name,
        ImmutableSortedMap.copyOf(labels),
        nodeName,
        ImmutableList.copyOf(antiAffinity));
  }
}
