package io.gantry.scheduler.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSortedMap;
import io.gantry.scheduler.actions.AllocateAction;
import io.gantry.scheduler.api.config.Placement;
import io.gantry.scheduler.framework.JobState;
import io.gantry.scheduler.framework.Plugin;
import io.gantry.scheduler.framework.PluginHooks;
import io.gantry.scheduler.framework.Session;
import io.gantry.scheduler.framework.TaskState;
import io.gantry.scheduler.framework.fit.FitMessages;
import io.gantry.scheduler.model.ClusterSnapshot;
import io.gantry.scheduler.model.JobInfo;
import io.gantry.scheduler.model.NodeInfo;
import io.gantry.scheduler.model.TaskStatus;
import io.gantry.scheduler.model.placement.Affinity;
import io.gantry.scheduler.model.placement.LabelSelector;
import io.gantry.scheduler.model.placement.LabelSelectorRequirement;
import io.gantry.scheduler.model.placement.PodAffinityTerm;
import io.gantry.scheduler.model.placement.SelectorOperator;
import io.gantry.scheduler.plugins.predicates.ScanningPodAffinityPredicate;
import io.gantry.scheduler.testing.FitTexts;
import io.gantry.scheduler.testing.FitTexts.JobFitText;
import io.gantry.scheduler.testing.Jobs;
import io.gantry.scheduler.testing.Nodes;
import io.gantry.scheduler.testing.Queues;
import io.gantry.scheduler.testing.Snapshots;
import io.gantry.scheduler.testing.Tasks;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The allocate action with the predicates plugin, whose inter-pod affinity reads an index kept
 * current through statements, checkpoints and rollbacks, decides exactly what it decides with the
 * straightforward scan of every placed pod in its place, on random small clusters whose nodes pass
 * every other predicate.
 */
class PodAffinityAllocateEquivalenceTest {
  private static final String ZONE = "zone";
  private static final List<String> APPS = List.of("web", "db", "cache", "batch");
  private static final List<String> TOPOLOGY_KEYS = List.of(ZONE, NodeInfo.HOSTNAME_LABEL);

  /** What a run decided and why the rest waits: the outcome to compare. */
  private record Outcome(
      List<?> decisions, Map<String, List<JobFitText>> jobErrors, Map<String, String> taskErrors) {
    static Outcome of(Session session) {
      Map<String, List<JobFitText>> jobErrors = new TreeMap<>();
      Map<String, String> taskErrors = new TreeMap<>();
      for (JobState job : session.jobs()) {
        jobErrors.put(job.id(), FitTexts.of(job));
        for (TaskState task : job.tasks()) {
          task.fitError().ifPresent(e -> taskErrors.put(task.id(), FitMessages.sentence(e)));
        }
      }
      return new Outcome(session.decisions(), jobErrors, taskErrors);
    }
  }

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
  void indexedPluginDecidesLikeTheScan(long seed) {
    ClusterSnapshot cluster = randomCluster(new Random(seed));

    Outcome indexed = Outcome.of(allocate(cluster, new PredicatesPlugin()));
    Outcome scanned = Outcome.of(allocate(cluster, new ScanningPodAffinityPredicate()));

    assertThat(indexed).isEqualTo(scanned);
    assertThat(indexed.decisions()).isNotEmpty();
    assertThat(indexed.taskErrors().values())
        .anyMatch(e -> e.contains("anti-affinity") || e.contains("pod affinity"));
  }

  private static Session allocate(ClusterSnapshot cluster, Plugin predicates) {
    List<Plugin> plugins = new ArrayList<>();
    for (Plugin p : new PluginRegistry().build(Map.of(), Placement.DEFAULTS).plugins()) {
      plugins.add(p instanceof PredicatesPlugin ? predicates : p);
    }
    Session session = Session.open(cluster, new PluginHooks(plugins));
    new AllocateAction().execute(session);
    return session;
  }

  private static ClusterSnapshot randomCluster(Random random) {
    List<NodeInfo> nodes = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      Nodes.Builder node = Nodes.node("n" + i).gpus(4);
      if (i != 7) {
        node.label(ZONE, "z" + (i % 3));
      }
      nodes.add(node.build());
    }
    List<JobInfo> jobs = new ArrayList<>();
    for (int j = 0; j < 6; j++) {
      Jobs.Builder job = Jobs.job("running-" + j).minMember(0);
      for (int t = 0; t < 1 + random.nextInt(2); t++) {
        Tasks.Builder task = randomTask(random, "t" + t).running("n" + random.nextInt(8));
        if (random.nextInt(4) == 0) {
          task.status(TaskStatus.RELEASING);
        }
        job.task(task);
      }
      jobs.add(job.build());
    }
    for (int j = 0; j < 14; j++) {
      int size = 1 + random.nextInt(4);
      Jobs.Builder job =
          Jobs.job("pending-" + j)
              .namespace(random.nextInt(4) == 0 ? "other" : "ns")
              .minMember(1 + random.nextInt(size));
      String app = pick(random, APPS);
      Affinity affinity = randomAffinity(random, app);
      for (int t = 0; t < size; t++) {
        job.task(randomTask(random, "t" + t).label("app", app).affinity(affinity));
      }
      jobs.add(job.build());
    }
    return Snapshots.of(nodes, List.of(Queues.queue("q").build()), jobs);
  }

  private static Tasks.Builder randomTask(Random random, String name) {
    Tasks.Builder task = Tasks.task(name).gpus(1).label("app", pick(random, APPS));
    if (random.nextBoolean()) {
      task.label("tier", random.nextBoolean() ? "front" : "back");
    }
    if (random.nextInt(3) == 0) {
      task.affinity(new Affinity(List.of(), List.of(), List.of(randomTerm(random))));
    }
    return task;
  }

  /** Often about the job's own label, so gangs spread or gather. */
  private static Affinity randomAffinity(Random random, String ownApp) {
    List<PodAffinityTerm> affinity = new ArrayList<>();
    List<PodAffinityTerm> anti = new ArrayList<>();
    switch (random.nextInt(5)) {
      case 0 -> affinity.add(term(LabelSelector.matchLabels(Map.of("app", ownApp)), random));
      case 1 -> anti.add(term(LabelSelector.matchLabels(Map.of("app", ownApp)), random));
      case 2 -> affinity.add(randomTerm(random));
      case 3 -> anti.add(randomTerm(random));
      default -> {}
    }
    if (random.nextInt(3) == 0) {
      anti.add(randomTerm(random));
    }
    return new Affinity(List.of(), affinity, anti);
  }

  private static PodAffinityTerm randomTerm(Random random) {
    LabelSelector selector =
        switch (random.nextInt(5)) {
          case 0, 1 -> LabelSelector.matchLabels(ImmutableMap.of("app", pick(random, APPS)));
          case 2 ->
              expressions(
                  LabelSelectorRequirement.of(
                      "app", SelectorOperator.IN, pick(random, APPS), pick(random, APPS)));
          case 3 -> expressions(LabelSelectorRequirement.of("tier", SelectorOperator.EXISTS));
          default ->
              expressions(
                  LabelSelectorRequirement.of("app", SelectorOperator.NOT_IN, pick(random, APPS)));
        };
    return term(selector, random);
  }

  private static PodAffinityTerm term(LabelSelector selector, Random random) {
    List<String> namespaces = random.nextInt(4) == 0 ? List.of("ns", "other") : List.of();
    return new PodAffinityTerm(selector, namespaces, pick(random, TOPOLOGY_KEYS));
  }

  private static LabelSelector expressions(LabelSelectorRequirement requirement) {
    return new LabelSelector(ImmutableSortedMap.of(), ImmutableList.of(requirement));
  }

  private static <T> T pick(Random random, List<T> values) {
    return values.get(random.nextInt(values.size()));
  }
}
