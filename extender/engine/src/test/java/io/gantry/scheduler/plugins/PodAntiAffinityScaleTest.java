package io.gantry.scheduler.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.base.Splitter;
import io.gantry.scheduler.actions.AllocateAction;
import io.gantry.scheduler.api.config.Placement;
import io.gantry.scheduler.api.result.BindDecision;
import io.gantry.scheduler.api.result.Decision;
import io.gantry.scheduler.framework.JobState;
import io.gantry.scheduler.framework.Plugin;
import io.gantry.scheduler.framework.PluginHooks;
import io.gantry.scheduler.framework.Session;
import io.gantry.scheduler.model.ClusterSnapshot;
import io.gantry.scheduler.model.JobInfo;
import io.gantry.scheduler.model.NodeInfo;
import io.gantry.scheduler.model.placement.Affinity;
import io.gantry.scheduler.model.placement.LabelSelector;
import io.gantry.scheduler.model.placement.PodAffinityTerm;
import io.gantry.scheduler.plugins.predicates.ComparisonCounter;
import io.gantry.scheduler.plugins.predicates.ScanningPodAffinityPredicate;
import io.gantry.scheduler.testing.FitTexts;
import io.gantry.scheduler.testing.Jobs;
import io.gantry.scheduler.testing.Nodes;
import io.gantry.scheduler.testing.Queues;
import io.gantry.scheduler.testing.Snapshots;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/**
 * Required pod anti-affinity at scale: 2,000 pending pods in gangs of 4 on 500 nodes of 8 GPUs,
 * each pod taking one GPU and repelling the pods with its label from its node. The affinity work is
 * counted in term-versus-pod comparisons, not time. The index's count stays linear in the pods
 * whether every pod shares one label (500 matching pods) or each gang has its own (3 matching
 * pods), while the straightforward scan, run on the same cluster, grows with the square of the
 * pods; both place exactly the same pods.
 */
class PodAntiAffinityScaleTest {
  private static final int GANG = 4;
  private static final String ANTI_AFFINITY = "node(s) didn't match pod anti-affinity rules";

  /** Task ids are namespace/job/task. */
  private static final Splitter TASK_ID = Splitter.on('/');

  /** One allocate run: its decisions, its session, and the comparisons the predicate made. */
  private record Run(Session session, List<Decision> decisions, long comparisons) {}

  @Test
  void oneLabelForAllPods() {
    int pods = 2000;
    ClusterSnapshot cluster = cluster(pods / GANG, g -> "spread");

    Run indexed = indexed(cluster);
    Run scanned = scanned(cluster);

    // One pod per node: the first 125 gangs are bound, the other 375 wait with KAI's message.
    Map<String, List<String>> byNode = podsByNode(indexed.decisions());
    assertThat(byNode).hasSize(500);
    assertThat(byNode.values()).allSatisfy(onNode -> assertThat(onNode).hasSize(1));
    assertThat(boundJobs(indexed)).isEqualTo(jobNames(0, 125));
    for (JobState job : indexed.session().jobs().subList(125, 500)) {
      assertThat(FitTexts.of(job))
          .containsExactly(
              FitTexts.podSchedulingErrors(
                  "Resources were found for 0 pods while 4 are required for gang scheduling."
                      + " Additional pods cannot be scheduled due to: no nodes with enough"
                      + " resources were found:"
                      + " 500 "
                      + ANTI_AFFINITY
                      + "."));
    }
    assertThat(indexed.decisions()).isEqualTo(scanned.decisions());

    // Index: each bound pod is compared once with the one selection its label files it under, and
    // each pod checked once with the one held anti-affinity term its label finds (from the second
    // pod on, when some pod holds it): 500 + 499 bound + the first waiting gang's first pod. The
    // other 374 waiting gangs' first pods have its shape and nothing moved since, so the allocator
    // reuses its failure without checking a node.
    assertThat(indexed.comparisons()).isEqualTo(500 + 499 + 1);
    // Scan: each pod checked compares its term and the placed pods' terms with every placed pod:
    // 2·(0 + 1 + … + 499) while binding, then the first waiting gang's first pod against all 500
    // (the other waiting gangs reuse its failure, as above).
    assertThat(scanned.comparisons()).isEqualTo(2 * (499 * 500 / 2) + 2 * 500);
  }

  @Test
  void oneLabelPerGang() {
    int pods = 2000;
    ClusterSnapshot cluster = cluster(pods / GANG, g -> String.format("g%03d", g));

    Run indexed = indexed(cluster);
    Run scanned = scanned(cluster);

    // Every pod is bound, the pods of each gang on four different nodes.
    assertThat(indexed.decisions()).hasSize(pods).allMatch(d -> d instanceof BindDecision);
    Map<String, TreeSet<String>> nodesByGang = new TreeMap<>();
    for (Decision d : indexed.decisions()) {
      String gang = TASK_ID.splitToList(d.taskId()).get(1);
      nodesByGang.computeIfAbsent(gang, g -> new TreeSet<>()).add(((BindDecision) d).nodeName());
    }
    assertThat(nodesByGang).hasSize(pods / GANG);
    assertThat(nodesByGang.values()).allSatisfy(nodes -> assertThat(nodes).hasSize(GANG));
    assertThat(indexed.decisions()).isEqualTo(scanned.decisions());

    // Index: one comparison per bound pod, and one per checked pod once its gang has a pod placed;
    // the pods of the other 499 gangs are never looked at.
    assertThat(indexed.comparisons()).isEqualTo(pods + (GANG - 1) * (pods / GANG));
    // Scan: the i-th pod compares two terms with each of the i pods placed before it.
    assertThat(scanned.comparisons()).isEqualTo((long) pods * (pods - 1));
  }

  @Test
  void comparisonsGrowLinearlyWithThePods() {
    long indexedHalf = indexed(cluster(250, g -> String.format("g%03d", g))).comparisons();
    long indexedFull = indexed(cluster(500, g -> String.format("g%03d", g))).comparisons();
    long scannedHalf = scanned(cluster(250, g -> String.format("g%03d", g))).comparisons();
    long scannedFull = scanned(cluster(500, g -> String.format("g%03d", g))).comparisons();

    assertThat(indexedFull).isEqualTo(2 * indexedHalf);
    assertThat(scannedFull).isGreaterThan(3 * scannedHalf);
  }

  private static Run indexed(ClusterSnapshot cluster) {
    ComparisonCounter comparisons = new ComparisonCounter();
    Session session = allocate(cluster, new PredicatesPlugin(comparisons));
    return new Run(session, session.decisions(), comparisons.count());
  }

  private static Run scanned(ClusterSnapshot cluster) {
    ScanningPodAffinityPredicate scan = new ScanningPodAffinityPredicate();
    Session session = allocate(cluster, scan);
    return new Run(session, session.decisions(), scan.comparisons());
  }

  /** The default plugins with {@code predicates} replaced. */
  private static Session allocate(ClusterSnapshot cluster, Plugin predicates) {
    List<Plugin> plugins = new ArrayList<>();
    for (Plugin p : new PluginRegistry().build(Map.of(), Placement.DEFAULTS).plugins()) {
      plugins.add(p instanceof PredicatesPlugin ? predicates : p);
    }
    Session session = Session.open(cluster, new PluginHooks(plugins));
    new AllocateAction().execute(session);
    return session;
  }

  /** Gangs of 4 one-GPU pods on a node per 4 pods; gang {@code g} carries label {@code app}. */
  private static ClusterSnapshot cluster(int gangs, IntFunction<String> app) {
    List<NodeInfo> nodes = new ArrayList<>();
    for (int n = 0; n < gangs; n++) {
      nodes.add(Nodes.node(String.format("node-%03d", n)).gpus(8).build());
    }
    List<JobInfo> jobs = new ArrayList<>();
    for (int g = 0; g < gangs; g++) {
      String label = app.apply(g);
      Affinity awayFromOwnLabel =
          new Affinity(
              List.of(),
              List.of(),
              List.of(
                  PodAffinityTerm.inOwnNamespace(
                      LabelSelector.matchLabels(Map.of("app", label)), NodeInfo.HOSTNAME_LABEL)));
      jobs.add(
          Jobs.job(String.format("g%03d", g))
              .minMember(GANG)
              .tasks(GANG, t -> t.gpus(1).label("app", label).affinity(awayFromOwnLabel))
              .build());
    }
    return Snapshots.of(nodes, List.of(Queues.queue("q").build()), jobs);
  }

  private static Map<String, List<String>> podsByNode(List<Decision> decisions) {
    Map<String, List<String>> byNode = new TreeMap<>();
    for (Decision d : decisions) {
      byNode.computeIfAbsent(((BindDecision) d).nodeName(), n -> new ArrayList<>()).add(d.taskId());
    }
    return byNode;
  }

  private static List<String> boundJobs(Run run) {
    return run.decisions().stream()
        .map(d -> TASK_ID.splitToList(d.taskId()).get(1))
        .distinct()
        .sorted()
        .toList();
  }

  private static List<String> jobNames(int from, int to) {
    List<String> names = new ArrayList<>();
    for (int g = from; g < to; g++) {
      names.add(String.format("g%03d", g));
    }
    return names;
  }
}
