package io.gantry.scheduler.plugins;

import static io.gantry.scheduler.model.placement.TaintEffect.NO_EXECUTE;
import static io.gantry.scheduler.model.placement.TaintEffect.NO_SCHEDULE;
import static io.gantry.scheduler.model.placement.TaintEffect.PREFER_NO_SCHEDULE;
import static org.assertj.core.api.Assertions.assertThat;

import io.gantry.scheduler.framework.FitStatus;
import io.gantry.scheduler.framework.Session;
import io.gantry.scheduler.model.NodeInfo;
import io.gantry.scheduler.model.TaskInfo;
import io.gantry.scheduler.model.TaskStatus;
import io.gantry.scheduler.model.placement.Affinity;
import io.gantry.scheduler.model.placement.LabelSelector;
import io.gantry.scheduler.model.placement.NodeSelectorRequirement;
import io.gantry.scheduler.model.placement.NodeSelectorTerm;
import io.gantry.scheduler.model.placement.PodAffinityTerm;
import io.gantry.scheduler.model.placement.SelectorOperator;
import io.gantry.scheduler.model.placement.TaintEffect;
import io.gantry.scheduler.model.placement.Toleration;
import io.gantry.scheduler.model.placement.TolerationOperator;
import io.gantry.scheduler.testing.FitTexts.StatusText;
import io.gantry.scheduler.testing.Jobs;
import io.gantry.scheduler.testing.Nodes;
import io.gantry.scheduler.testing.Queues;
import io.gantry.scheduler.testing.Sessions;
import io.gantry.scheduler.testing.Snapshots;
import io.gantry.scheduler.testing.Tasks;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The predicates plugin on node {@code n1}: readiness, cordon, max pods, nodeSelector and required
 * node affinity, taints, required inter-pod (anti-)affinity, each with its exact message.
 */
class PredicatesPluginTest {
  private static final NodeInfo N1 = Nodes.node("n1").gpus(8).label("zone", "a").build();
  private static final NodeInfo N2 = Nodes.node("n2").gpus(8).label("zone", "b").build();

  record Case(
      String name,
      List<NodeInfo> nodes,
      List<TaskInfo> placed,
      Tasks.Builder task,
      StatusText expected) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case("ready untainted node", List.of(N1), List.of(), task(), StatusText.SUCCESS),
        new Case(
            "not-ready node",
            List.of(Nodes.node("n1").notReady().build()),
            List.of(),
            task(),
            fail("node(s) were not ready")),
        new Case(
            "cordoned node",
            List.of(Nodes.node("n1").cordoned().build()),
            List.of(),
            task(),
            fail("node(s) were unschedulable")),
        new Case(
            "cordoned node, pod tolerates node.kubernetes.io/unschedulable",
            List.of(Nodes.node("n1").cordoned().build()),
            List.of(),
            task()
                .tolerations(
                    toleration(
                        "node.kubernetes.io/unschedulable",
                        TolerationOperator.EXISTS,
                        "",
                        NO_SCHEDULE)),
            StatusText.SUCCESS),
        new Case(
            "cordoned node, pod tolerates every taint",
            List.of(Nodes.node("n1").cordoned().build()),
            List.of(),
            task().tolerations(Toleration.everything()),
            StatusText.SUCCESS),
        new Case(
            "cordoned node, toleration for the wrong effect",
            List.of(Nodes.node("n1").cordoned().build()),
            List.of(),
            task()
                .tolerations(
                    toleration(
                        "node.kubernetes.io/unschedulable",
                        TolerationOperator.EXISTS,
                        "",
                        NO_EXECUTE)),
            fail("node(s) were unschedulable")),
        new Case(
            "not ready is reported before a taint",
            List.of(Nodes.node("n1").notReady().taint("dedicated", "gpu", NO_SCHEDULE).build()),
            List.of(),
            task(),
            fail("node(s) were not ready")),
        new Case(
            "nodeSelector matches",
            List.of(N1),
            List.of(),
            task().nodeSelector("zone", "a"),
            StatusText.SUCCESS),
        new Case(
            "nodeSelector with another value",
            List.of(N1),
            List.of(),
            task().nodeSelector("zone", "b"),
            fail("node(s) didn't match Pod's node affinity/selector")),
        new Case(
            "nodeSelector on a label the node lacks",
            List.of(N1),
            List.of(),
            task().nodeSelector("gpu-type", "h100"),
            fail("node(s) didn't match Pod's node affinity/selector")),
        new Case(
            "required node affinity matches",
            List.of(N1),
            List.of(),
            task().affinity(nodeAffinity("zone", SelectorOperator.IN, "a", "c")),
            StatusText.SUCCESS),
        new Case(
            "required node affinity does not match",
            List.of(N1),
            List.of(),
            task().affinity(nodeAffinity("zone", SelectorOperator.NOT_IN, "a")),
            fail("node(s) didn't match Pod's node affinity/selector")),
        new Case(
            "NoSchedule taint without toleration",
            List.of(Nodes.node("n1").taint("dedicated", "gpu", NO_SCHEDULE).build()),
            List.of(),
            task(),
            fail("node(s) had untolerated taint {dedicated: gpu}")),
        new Case(
            "NoExecute taint with an empty value",
            List.of(Nodes.node("n1").taint("node.kubernetes.io/not-ready", "", NO_EXECUTE).build()),
            List.of(),
            task(),
            fail("node(s) had untolerated taint {node.kubernetes.io/not-ready: }")),
        new Case(
            "NoSchedule taint tolerated with Equal",
            List.of(Nodes.node("n1").taint("dedicated", "gpu", NO_SCHEDULE).build()),
            List.of(),
            task()
                .tolerations(toleration("dedicated", TolerationOperator.EQUAL, "gpu", NO_SCHEDULE)),
            StatusText.SUCCESS),
        new Case(
            "NoSchedule taint, toleration with another value",
            List.of(Nodes.node("n1").taint("dedicated", "gpu", NO_SCHEDULE).build()),
            List.of(),
            task()
                .tolerations(toleration("dedicated", TolerationOperator.EQUAL, "cpu", NO_SCHEDULE)),
            fail("node(s) had untolerated taint {dedicated: gpu}")),
        new Case(
            "PreferNoSchedule taint never blocks",
            List.of(Nodes.node("n1").taint("spot", "true", PREFER_NO_SCHEDULE).build()),
            List.of(),
            task(),
            StatusText.SUCCESS),
        new Case(
            "required pod anti-affinity against a running pod on the node",
            List.of(N1, N2),
            List.of(Tasks.task("web").label("app", "web").running("n1").build()),
            task().affinity(antiAffinity("app", "web")),
            fail("node(s) didn't match pod anti-affinity rules")),
        new Case(
            "required pod anti-affinity against a running pod on another node",
            List.of(N1, N2),
            List.of(Tasks.task("web").label("app", "web").running("n2").build()),
            task().affinity(antiAffinity("app", "web")),
            StatusText.SUCCESS),
        new Case(
            "required pod anti-affinity ignores a finished pod",
            List.of(N1, N2),
            List.of(
                Tasks.task("web")
                    .label("app", "web")
                    .running("n1")
                    .status(TaskStatus.SUCCEEDED)
                    .build()),
            task().affinity(antiAffinity("app", "web")),
            StatusText.SUCCESS),
        new Case(
            "a running pod's anti-affinity forbids the incoming pod",
            List.of(N1, N2),
            List.of(Tasks.task("web").affinity(antiAffinity("app", "batch")).running("n1").build()),
            task().label("app", "batch"),
            fail("node(s) didn't satisfy existing pods anti-affinity rules")),
        new Case(
            "required pod affinity with the matching pod in another zone",
            List.of(N1, N2),
            List.of(Tasks.task("db").label("app", "db").running("n2").build()),
            task().affinity(podAffinity("app", "db", "zone")),
            fail("node(s) didn't match pod affinity rules")),
        new Case(
            "required pod affinity with the matching pod in the node's zone",
            List.of(N1, N2),
            List.of(Tasks.task("db").label("app", "db").running("n1").build()),
            task().affinity(podAffinity("app", "db", "zone")),
            StatusText.SUCCESS));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void filters(Case c) {
    PredicatesPlugin plugin = new PredicatesPlugin();
    Session session = session(c.nodes(), c.placed(), c.task(), plugin);

    assertThat(StatusText.of(plugin.filter(session.task("ns/p/t"), session.node("n1"))))
        .isEqualTo(c.expected());
  }

  @Test
  void nodeAtMaxPodsIsRejected() {
    PredicatesPlugin plugin = new PredicatesPlugin();
    Session session =
        session(
            List.of(Nodes.node("n1").gpus(8).maxPods(2).build()),
            List.of(Tasks.task("a").running("n1").build(), Tasks.task("b").running("n1").build()),
            task(),
            plugin);

    FitStatus status = plugin.filter(session.task("ns/p/t"), session.node("n1"));

    assertThat(status.code()).isEqualTo(FitStatus.Code.UNSCHEDULABLE);
    assertThat(status.plugin()).contains("predicates");
  }

  @Test
  void nodeWithAFreePodSlotIsAccepted() {
    PredicatesPlugin plugin = new PredicatesPlugin();
    Session session =
        session(
            List.of(Nodes.node("n1").gpus(8).maxPods(2).build()),
            List.of(Tasks.task("a").running("n1").build()),
            task(),
            plugin);

    assertThat(plugin.filter(session.task("ns/p/t"), session.node("n1")))
        .isEqualTo(FitStatus.SUCCESS);
  }

  @Test
  void nodeAtMaxPodsIsRejectedWithKaisMessage() {
    PredicatesPlugin plugin = new PredicatesPlugin();
    Session session =
        session(
            List.of(Nodes.node("n1").gpus(8).maxPods(1).build()),
            List.of(Tasks.task("a").running("n1").build()),
            task(),
            plugin);

    assertThat(StatusText.of(plugin.filter(session.task("ns/p/t"), session.node("n1"))))
        .isEqualTo(fail("node(s) pod number exceeded"));
  }

  private static Tasks.Builder task() {
    return Tasks.task("t").gpus(1);
  }

  private static StatusText fail(String reason) {
    return StatusText.unschedulable("predicates", reason);
  }

  private static Toleration toleration(
      String key, TolerationOperator operator, String value, TaintEffect effect) {
    return new Toleration(key, operator, value, Optional.of(effect));
  }

  private static Affinity nodeAffinity(String key, SelectorOperator operator, String... values) {
    return new Affinity(
        List.of(NodeSelectorTerm.ofExpressions(NodeSelectorRequirement.of(key, operator, values))),
        List.of(),
        List.of());
  }

  private static Affinity antiAffinity(String key, String value) {
    return new Affinity(
        List.of(),
        List.of(),
        List.of(
            PodAffinityTerm.inOwnNamespace(
                LabelSelector.matchLabels(Map.of(key, value)), NodeInfo.HOSTNAME_LABEL)));
  }

  private static Affinity podAffinity(String key, String value, String topologyKey) {
    return new Affinity(
        List.of(),
        List.of(
            PodAffinityTerm.inOwnNamespace(
                LabelSelector.matchLabels(Map.of(key, value)), topologyKey)),
        List.of());
  }

  private static Session session(
      List<NodeInfo> nodes, List<TaskInfo> placed, Tasks.Builder task, PredicatesPlugin plugin) {
    return Sessions.open(
        Snapshots.of(
            nodes,
            List.of(Queues.queue("q").build()),
            List.of(
                Jobs.job("busy").minMember(0).task(placed.toArray(TaskInfo[]::new)).build(),
                Jobs.job("p").task(task).build())),
        plugin);
  }
}
