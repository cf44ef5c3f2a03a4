package io.gantry.chart;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.gantry.scheduler.kube.CrdInstaller;
import io.gantry.scheduler.kube.SchedulerConfigFile;
import io.gantry.scheduler.kube.SchedulerSettings;
import io.gantry.scheduler.sim.spec.SchedulerFileLoader;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1PriorityClass;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The chart with its default values: what it installs, and that the pieces fit together. */
class ChartRenderTest {
  /** Kinds without a client-java model: KAI's CRs and the Prometheus Operator's. */
  private static final Set<String> CUSTOM_KINDS = Set.of("Queue", "ServiceMonitor");

  @Test
  void everyRenderedObjectIsAKnownKindReadByItsModel() {
    RenderedChart chart = RenderedChart.render();

    assertThat(chart.objects())
        .extracting(o -> o.path("kind").asText())
        .allMatch(k -> RenderedChart.MODELS.containsKey(k) || CUSTOM_KINDS.contains(k));
    assertThat(kindsAndNames(chart))
        .contains(
            "Deployment/gantry-scheduler",
            "ConfigMap/gantry-scheduler",
            "Service/gantry-scheduler",
            "ServiceAccount/gantry-scheduler",
            "ClusterRole/gantry-scheduler",
            "Role/gantry-scheduler",
            "Job/gantry-crd-upgrader",
            "Queue/default-parent-queue",
            "Queue/default-queue");
  }

  @Test
  void theSchedulerConfigurationIsReadByTheSchedulersOwnLoader() throws Exception {
    SchedulerSettings one = settings(RenderedChart.render());
    SchedulerSettings three = settings(RenderedChart.render(Map.of("scheduler.replicas", 3)));

    assertThat(one.schedulerName()).isEqualTo("gantry-scheduler");
    assertThat(one.leaderElection().enabled()).isFalse();
    assertThat(three.leaderElection().enabled()).isTrue();
    assertThat(three.leaderElection().namespace()).isEqualTo(RenderedChart.NAMESPACE);
  }

  @Test
  void aNewConfigurationRollsTheSchedulerPods() {
    String before = checksum(RenderedChart.render());
    String after = checksum(RenderedChart.render(Map.of("scheduler.config.schedulePeriod", "2s")));

    assertThat(after).isNotEqualTo(before);
  }

  @Test
  void kaisFourPriorityClassesCarryKaisValues() {
    Map<String, Integer> values = new TreeMap<>();
    for (V1PriorityClass pc :
        RenderedChart.render().models("PriorityClass", V1PriorityClass.class)) {
      values.put(pc.getMetadata().getName(), pc.getValue());
    }

    assertThat(values)
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("train", 50, "build-preemptible", 75, "build", 100, "inference", 125));
    assertThat(
            RenderedChart.render(Map.of("defaultPriorityClasses.enabled", false))
                .ofKind("PriorityClass"))
        .isEmpty();
  }

  @Test
  void theDefaultQueuesAreKaisAndKeptOnUninstall() {
    RenderedChart chart = RenderedChart.render();
    ObjectNode leaf = chart.find("Queue", "default-queue").orElseThrow();

    assertThat(leaf.path("spec").path("parentQueue").asText()).isEqualTo("default-parent-queue");
    for (String resource : new String[] {"cpu", "gpu", "memory"}) {
      JsonNode r = leaf.path("spec").path("resources").path(resource);
      assertThat(r.path("quota").asInt()).isZero();
      assertThat(r.path("limit").asInt()).isEqualTo(-1);
      assertThat(r.path("overQuotaWeight").asInt()).isEqualTo(1);
    }
    JsonNode annotations = leaf.path("metadata").path("annotations");
    assertThat(annotations.path("helm.sh/resource-policy").asText()).isEqualTo("keep");
    assertThat(annotations.path(RenderedChart.HOOK).asText()).isEqualTo("post-install");
    assertThat(
            RenderedChart.render(Map.of("defaultQueue.createDefaultQueue", false)).ofKind("Queue"))
        .isEmpty();
  }

  @Test
  void theRenderedCrdsAreTheChartsCrdFilesAndTheOnesTheUpgraderApplies() throws Exception {
    Path dir = RenderedChart.chart().resolve("crds");
    Set<String> files;
    try (Stream<Path> list = Files.list(dir)) {
      files = list.map(p -> p.getFileName().toString()).collect(Collectors.toSet());
    }
    YAMLMapper yaml = new YAMLMapper();
    Set<String> fileNames =
        files.stream().map(f -> readName(yaml, dir.resolve(f))).collect(Collectors.toSet());

    assertThat(files).containsExactlyInAnyOrderElementsOf(CrdInstaller.FILES);
    assertThat(
            RenderedChart.crds().ofKind("CustomResourceDefinition").stream()
                .map(o -> o.path("metadata").path("name").asText()))
        .containsExactlyInAnyOrderElementsOf(fileNames);
    assertThat(CrdInstaller.bundled().stream().map(crd -> crd.getMetadata().getName()))
        .containsExactlyInAnyOrderElementsOf(fileNames);
  }

  @Test
  void theCrdUpgraderIsAPreUpgradeHookRunningGantryCrdsApply() {
    RenderedChart chart = RenderedChart.render();
    ObjectNode job = chart.find("Job", "gantry-crd-upgrader").orElseThrow();

    assertThat(job.path("metadata").path("annotations").path(RenderedChart.HOOK).asText())
        .isEqualTo("pre-upgrade");
    assertThat(
            job.path("spec").path("template").path("spec").path("containers").get(0).path("args"))
        .extracting(JsonNode::asText)
        .containsExactly("crds", "apply");
    for (String kind : new String[] {"ServiceAccount", "ClusterRole", "ClusterRoleBinding"}) {
      assertThat(
              chart
                  .find(kind, "gantry-crd-upgrader")
                  .orElseThrow()
                  .path("metadata")
                  .path("annotations")
                  .path(RenderedChart.HOOK)
                  .asText())
          .as(kind)
          .isEqualTo("pre-upgrade");
    }
  }

  @Test
  void everyReferenceBetweenRenderedObjectsResolves() {
    for (Map<String, Object> sets :
        java.util.List.<Map<String, Object>>of(
            Map.of(),
            Map.of(
                "metrics.serviceMonitor.enabled", true,
                "metrics.grafanaDashboard.enabled", true))) {
      CrossReferences.check(RenderedChart.render(sets));
    }
  }

  @Test
  void containersRunAsNonRootOnAReadOnlyRoot() {
    for (V1Deployment d : RenderedChart.render().models("Deployment", V1Deployment.class)) {
      for (V1Container c : d.getSpec().getTemplate().getSpec().getContainers()) {
        assertThat(c.getSecurityContext().getRunAsNonRoot()).as(c.getName()).isTrue();
        assertThat(c.getSecurityContext().getReadOnlyRootFilesystem()).as(c.getName()).isTrue();
        assertThat(c.getSecurityContext().getAllowPrivilegeEscalation()).as(c.getName()).isFalse();
      }
    }
  }

  private static String readName(YAMLMapper yaml, Path file) {
    try {
      return yaml.readTree(file.toFile()).path("metadata").path("name").asText();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  static SchedulerSettings settings(RenderedChart chart) throws Exception {
    String text =
        chart
            .find("ConfigMap", "gantry-scheduler")
            .orElseThrow()
            .path("data")
            .path("scheduler.yaml")
            .asText();
    return SchedulerConfigFile.settings(
        SchedulerFileLoader.parse("scheduler.yaml", text), "gantry-0", "ignored");
  }

  private static String checksum(RenderedChart chart) {
    return chart
        .find("Deployment", "gantry-scheduler")
        .orElseThrow()
        .path("spec")
        .path("template")
        .path("metadata")
        .path("annotations")
        .path("checksum/config")
        .asText();
  }

  private static Set<String> kindsAndNames(RenderedChart chart) {
    return chart.objects().stream()
        .map(o -> o.path("kind").asText() + "/" + o.path("metadata").path("name").asText())
        .collect(Collectors.toSet());
  }
}
