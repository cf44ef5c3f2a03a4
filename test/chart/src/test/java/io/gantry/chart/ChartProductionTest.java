package io.gantry.chart;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1DaemonSet;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1PodDisruptionBudget;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1Toleration;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chart as a platform team installs it in production: the admission webhook's availability and
 * reach, certificates that survive {@code helm upgrade}, disruption budgets, the global pod
 * settings on every pod, resources, probes and monitors. Each with the default values and with
 * every value set ({@code values-every-key.yaml}).
 */
class ChartProductionTest {
  private static final Path EVERY_KEY = Path.of("src/test/resources/values-every-key.yaml");

  @Test
  void theWebhookRunsTwiceOnDifferentNodesBehindABudgetAndAReadinessProbe() {
    RenderedChart chart = RenderedChart.render();
    V1PodSpec pod = podSpec(chart, "Deployment", "gantry-admission");
    V1Container admission = pod.getContainers().get(0);

    assertThat(chart.model("Deployment", "gantry-admission", V1Deployment.class).getSpec())
        .satisfies(s -> assertThat(s.getReplicas()).isEqualTo(2));
    assertThat(
            pod.getAffinity()
                .getPodAntiAffinity()
                .getPreferredDuringSchedulingIgnoredDuringExecution())
        .singleElement()
        .satisfies(
            term -> {
              assertThat(term.getPodAffinityTerm().getTopologyKey())
                  .isEqualTo("kubernetes.io/hostname");
              assertThat(term.getPodAffinityTerm().getLabelSelector().getMatchLabels())
                  .containsEntry("app.kubernetes.io/component", "admission");
            });
    assertThat(admission.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/healthz");
    assertThat(admission.getReadinessProbe().getHttpGet().getScheme()).isEqualTo("HTTPS");
    assertThat(pod.getPriorityClassName()).isEqualTo("system-cluster-critical");
    V1PodDisruptionBudget pdb =
        chart.model("PodDisruptionBudget", "gantry-admission", V1PodDisruptionBudget.class);
    assertThat(pdb.getSpec().getMaxUnavailable().getIntValue()).isEqualTo(1);
    assertThat(pdb.getSpec().getSelector().getMatchLabels())
        .containsEntry("app.kubernetes.io/component", "admission");

    RenderedChart every = RenderedChart.render(EVERY_KEY);
    V1PodSpec everyPod = podSpec(every, "Deployment", "gantry-admission");
    assertThat(every.model("Deployment", "gantry-admission", V1Deployment.class).getSpec())
        .satisfies(s -> assertThat(s.getReplicas()).isEqualTo(3));
    assertThat(
            everyPod
                .getAffinity()
                .getPodAntiAffinity()
                .getRequiredDuringSchedulingIgnoredDuringExecution())
        .singleElement()
        .satisfies(t -> assertThat(t.getTopologyKey()).isEqualTo("topology.kubernetes.io/zone"));
    assertThat(everyPod.getPriorityClassName()).isEqualTo("webhook-critical");
    assertThat(everyPod.getNodeSelector()).containsEntry("example.com/webhook", "yes");
    assertThat(everyPod.getTolerations())
        .extracting(V1Toleration::getKey)
        .contains("example.com/webhook");
    assertThat(every.find("PodDisruptionBudget", "gantry-admission")).isPresent();
    CrossReferences.check(chart);
    CrossReferences.check(every);
  }

  @Test
  void theWebhookNeverSeesKubeSystemGantrysNamespaceOrGantrysOwnPods(@TempDir Path dir)
      throws IOException {
    Path monitoringOnly =
        Files.writeString(dir.resolve("values.yaml"), "webhook:\n  skipNamespaces: [monitoring]\n");
    JsonNode hook = webhook(RenderedChart.render());

    assertThat(hook.at("/namespaceSelector/matchExpressions/0/key").asText())
        .isEqualTo("kubernetes.io/metadata.name");
    assertThat(hook.at("/namespaceSelector/matchExpressions/0/operator").asText())
        .isEqualTo("NotIn");
    assertThat(hook.at("/namespaceSelector/matchExpressions/0/values"))
        .extracting(JsonNode::asText)
        .containsExactly(RenderedChart.NAMESPACE, "kube-system");
    assertThat(hook.at("/objectSelector/matchExpressions/0/key").asText())
        .isEqualTo("app.kubernetes.io/name");
    assertThat(hook.at("/objectSelector/matchExpressions/0/operator").asText()).isEqualTo("NotIn");
    assertThat(hook.at("/objectSelector/matchExpressions/0/values"))
        .extracting(JsonNode::asText)
        .containsExactly("gantry");

    // kube-system stays out even when the value leaves it out of its list
    JsonNode withoutKubeSystem = webhook(RenderedChart.render(Map.of(), monitoringOnly));
    assertThat(withoutKubeSystem.at("/namespaceSelector/matchExpressions/0/values"))
        .extracting(JsonNode::asText)
        .containsExactly(RenderedChart.NAMESPACE, "kube-system", "monitoring");
  }

  @Test
  void theFailurePolicyIsTheValueAndTheNotesSayWhatFailCosts() {
    assertThat(webhook(RenderedChart.render()).path("failurePolicy").asText()).isEqualTo("Fail");
    assertThat(webhook(RenderedChart.render(EVERY_KEY)).path("failurePolicy").asText())
        .isEqualTo("Ignore");
    assertThat(RenderedChart.notes(Map.of()))
        .contains(
            "webhook.failurePolicy is Fail, so pod creation outside gantry-system,kube-system"
                + " waits on the\nadmission webhook (2 replicas)");
    assertThat(RenderedChart.notes(Map.of("webhook.failurePolicy", "Ignore")))
        .doesNotContain("failurePolicy");
  }

  @Test
  void anUpgradeKeepsTheInstalledCertificateAndCa() {
    RenderedChart installed = RenderedChart.render();
    ObjectNode secret = installed.find("Secret", "gantry-webhook-tls").orElseThrow();

    RenderedChart upgraded = RenderedChart.upgradeOver(Manifests.yaml(secret), Map.of());

    ObjectNode kept = upgraded.find("Secret", "gantry-webhook-tls").orElseThrow();
    assertThat(kept.path("data")).isEqualTo(secret.path("data"));
    assertThat(webhook(upgraded).at("/clientConfig/caBundle").asText())
        .isEqualTo(secret.at("/data/ca.crt").asText());
    // without an installed Secret each render makes its own CA
    assertThat(
            RenderedChart.render()
                .find("Secret", "gantry-webhook-tls")
                .orElseThrow()
                .at("/data/ca.crt")
                .asText())
        .isNotEqualTo(secret.at("/data/ca.crt").asText());
    // a Secret without its CA (made by hand, say) is replaced by a whole new pair
    ObjectNode partial = secret.deepCopy();
    ((ObjectNode) partial.path("data")).remove("ca.crt");
    RenderedChart replaced = RenderedChart.upgradeOver(Manifests.yaml(partial), Map.of());
    assertThat(replaced.find("Secret", "gantry-webhook-tls").orElseThrow().at("/data/tls.crt"))
        .isNotEqualTo(secret.at("/data/tls.crt"));
  }

  @Test
  void withCertManagerAnUpgradeRendersNoSecretAndNoCaBundle() {
    RenderedChart upgraded =
        RenderedChart.upgradeOver(
            "apiVersion: v1\nkind: Secret\ndata: {tls.crt: YQ==, tls.key: YQ==, ca.crt: YQ==}\n",
            Map.of("webhook.certManager.enabled", true));

    assertThat(upgraded.find("Secret", "gantry-webhook-tls")).isEmpty();
    assertThat(webhook(upgraded).path("clientConfig").has("caBundle")).isFalse();
  }

  @Test
  void theSchedulerAndTheSecondKubeSchedulerHaveDisruptionBudgets() {
    RenderedChart chart = RenderedChart.render();
    V1PodDisruptionBudget scheduler =
        chart.model("PodDisruptionBudget", "gantry-scheduler", V1PodDisruptionBudget.class);
    assertThat(scheduler.getSpec().getMaxUnavailable().getIntValue()).isEqualTo(1);
    assertThat(scheduler.getSpec().getSelector().getMatchLabels())
        .containsEntry("app.kubernetes.io/component", "scheduler");

    RenderedChart extender = RenderedChart.render(Map.of("mode", "extender"));
    assertThat(extender.find("PodDisruptionBudget", "gantry-extender")).isPresent();
    assertThat(extender.find("PodDisruptionBudget", "gantry-kube-scheduler")).isPresent();
    CrossReferences.check(extender);

    assertThat(RenderedChart.render(EVERY_KEY).find("PodDisruptionBudget", "gantry-scheduler"))
        .isEmpty();
  }

  @Test
  void theNotesGiveTheNextCommands() {
    String notes = RenderedChart.notes(Map.of());

    assertThat(notes)
        .contains("kubectl -n gantry-system rollout status deployment/gantry-scheduler")
        .contains("kubectl -n gantry-system rollout status deployment/gantry-admission")
        .contains("kubectl get queues.scheduling.run.ai")
        .contains("spec.schedulerName: gantry-scheduler")
        .contains("kai.scheduler/queue: default-queue")
        .contains("curl http://localhost:8080/metrics")
        .contains("curl http://localhost:8081/snapshot > snapshot.yaml");
    assertThat(RenderedChart.notes(Map.of("mode", "extender")))
        .contains("rollout status deployment/gantry-extender")
        .contains("curl -k https://localhost:8888/metrics")
        .doesNotContain("/snapshot");
  }

  @Test
  void theGlobalPodSettingsReachEveryPodTheCrdJobToo() {
    for (String mode : List.of("scheduler", "extender")) {
      RenderedChart chart =
          RenderedChart.render(
              Map.of(
                  "mode",
                  mode,
                  "crdUpgrader.enabled",
                  true,
                  "extender.kubeScheduler.mode",
                  "deployment"),
              EVERY_KEY);
      List<V1PodSpec> pods = allPods(chart);
      assertThat(pods).hasSizeGreaterThanOrEqualTo(4);
      for (V1PodSpec pod : pods) {
        String name = pod.getContainers().get(0).getName();
        assertThat(pod.getImagePullSecrets())
            .as(name)
            .extracting(r -> r.getName())
            .containsExactly("registry-credentials");
        assertThat(pod.getNodeSelector()).as(name).containsEntry("example.com/zone", "east");
        assertThat(pod.getTolerations())
            .as(name)
            .extracting(V1Toleration::getKey)
            .contains("example.com/dedicated");
        assertThat(pod.getPriorityClassName()).as(name).isNotEmpty();
        assertThat(pod.getSecurityContext().getSupplementalGroups())
            .as(name)
            .containsExactly(4000L);
        for (V1Container c : pod.getContainers()) {
          assertThat(c.getSecurityContext().getRunAsUser()).as(c.getName()).isIn(1000L, 0L);
        }
      }
      // a component's own value wins over the global one; the Job has none of its own
      assertThat(podSpec(chart, "Job", "gantry-crd-upgrader").getPriorityClassName())
          .isEqualTo("platform-critical");
      assertThat(podSpec(chart, "DaemonSet", "gantry-device-agent").getPriorityClassName())
          .isEqualTo("gpu-node-critical");
      assertThat(podSpec(chart, "DaemonSet", "gantry-device-agent").getNodeSelector())
          .containsEntry("example.com/gpu", "yes");
      // the node agents stay root: the kubelet's plugin directories are root-only
      V1Container agent = podSpec(chart, "DaemonSet", "gantry-dra-driver").getContainers().get(0);
      assertThat(agent.getSecurityContext().getRunAsUser()).isZero();
      assertThat(agent.getSecurityContext().getRunAsNonRoot()).isFalse();
      V1Container job = podSpec(chart, "Job", "gantry-crd-upgrader").getContainers().get(0);
      assertThat(job.getSecurityContext().getRunAsUser()).isEqualTo(1000L);
      assertThat(job.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
      CrossReferences.check(chart);
    }

    // by default a pod gets only its own settings: Gantry's non-root pods, the agents' GPU nodes
    RenderedChart defaults = RenderedChart.render();
    assertThat(podSpec(defaults, "Job", "gantry-crd-upgrader").getPriorityClassName()).isNull();
    assertThat(podSpec(defaults, "Deployment", "gantry-scheduler").getNodeSelector())
        .isNullOrEmpty();
    assertThat(podSpec(defaults, "DaemonSet", "gantry-device-agent").getNodeSelector())
        .containsExactly(Map.entry("nvidia.com/gpu.present", "true"));
    assertThat(
            podSpec(defaults, "Deployment", "gantry-scheduler").getSecurityContext().getFsGroup())
        .isEqualTo(65532L);
  }

  @Test
  void everyContainerHasResourceRequestsAndAMemoryLimit() {
    List<RenderedChart> charts =
        List.of(
            RenderedChart.render(Map.of("draDriver.enabled", true)),
            RenderedChart.render(Map.of("mode", "extender", "draDriver.enabled", true)),
            RenderedChart.render(
                Map.of("crdUpgrader.enabled", true, "extender.kubeScheduler.mode", "deployment"),
                EVERY_KEY));
    for (RenderedChart chart : charts) {
      for (V1PodSpec pod : allPods(chart)) {
        for (V1Container c : pod.getContainers()) {
          assertThat(c.getResources().getRequests()).as(c.getName()).containsKeys("cpu", "memory");
          assertThat(c.getResources().getLimits()).as(c.getName()).containsKey("memory");
        }
      }
    }
  }

  @Test
  void theNodeAgentsServeMetricsAndProbesOnTheirHttpPort() {
    RenderedChart chart = RenderedChart.render(Map.of("draDriver.enabled", true));
    RenderedChart every = RenderedChart.render(EVERY_KEY);
    for (String[] agent :
        new String[][] {{"gantry-device-agent", "9400"}, {"gantry-dra-driver", "9401"}}) {
      V1Container c = podSpec(chart, "DaemonSet", agent[0]).getContainers().get(0);
      assertThat(c.getArgs()).as(agent[0]).contains("--http-port=8080");
      assertThat(c.getPorts())
          .singleElement()
          .satisfies(
              p -> {
                assertThat(p.getName()).isEqualTo("http");
                assertThat(p.getContainerPort()).isEqualTo(8080);
              });
      assertThat(c.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/healthz");
      assertThat(c.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/readyz");
      V1Container e = podSpec(every, "DaemonSet", agent[0]).getContainers().get(0);
      assertThat(e.getArgs()).contains("--http-port=" + agent[1]);
      assertThat(e.getPorts().get(0).getContainerPort()).isEqualTo(Integer.parseInt(agent[1]));
    }
  }

  @Test
  void aMonitorScrapesEveryComponentThatServesMetrics() {
    assertThat(RenderedChart.render().ofKind("ServiceMonitor")).isEmpty();
    assertThat(RenderedChart.render().ofKind("PodMonitor")).isEmpty();

    RenderedChart chart =
        RenderedChart.render(
            Map.of("metrics.serviceMonitor.enabled", true, "draDriver.enabled", true));
    assertThat(
            chart
                .find("ServiceMonitor", "gantry-scheduler")
                .orElseThrow()
                .at("/spec/endpoints/0")
                .has("scheme"))
        .isFalse();
    JsonNode admission =
        chart.find("ServiceMonitor", "gantry-admission").orElseThrow().at("/spec/endpoints/0");
    assertThat(admission.path("port").asText()).isEqualTo("https");
    assertThat(admission.path("scheme").asText()).isEqualTo("https");
    assertThat(admission.at("/tlsConfig/ca/secret/name").asText()).isEqualTo("gantry-webhook-tls");
    assertThat(admission.at("/tlsConfig/serverName").asText())
        .isEqualTo("gantry-admission.gantry-system.svc");
    for (String agent : List.of("gantry-device-agent", "gantry-dra-driver")) {
      JsonNode endpoint =
          chart.find("PodMonitor", agent).orElseThrow().at("/spec/podMetricsEndpoints/0");
      assertThat(endpoint.path("port").asText()).isEqualTo("http");
      assertThat(endpoint.path("path").asText()).isEqualTo("/metrics");
    }
    CrossReferences.check(chart);

    // the extender serves its metrics over HTTPS with the webhook's certificate
    RenderedChart extender =
        RenderedChart.render(Map.of("mode", "extender", "metrics.serviceMonitor.enabled", true));
    JsonNode ext =
        extender.find("ServiceMonitor", "gantry-extender").orElseThrow().at("/spec/endpoints/0");
    assertThat(ext.path("scheme").asText()).isEqualTo("https");
    assertThat(extender.find("ServiceMonitor", "gantry-admission")).isEmpty();
    CrossReferences.check(extender);

    RenderedChart every = RenderedChart.render(EVERY_KEY);
    assertThat(every.ofKind("ServiceMonitor")).hasSize(2);
    assertThat(every.ofKind("PodMonitor")).hasSize(2);
    assertThat(every.ofKind("PodMonitor"))
        .allSatisfy(
            m ->
                assertThat(m.at("/metadata/labels/release").asText())
                    .isEqualTo("kube-prometheus-stack"));
  }

  @Test
  void everyGantryCommandLogsInTheChosenFormat() {
    for (String mode : List.of("scheduler", "extender")) {
      RenderedChart text =
          RenderedChart.render(
              Map.of("mode", mode, "draDriver.enabled", true, "crdUpgrader.enabled", true));
      RenderedChart json =
          RenderedChart.render(Map.of("mode", mode, "crdUpgrader.enabled", true), EVERY_KEY);
      for (RenderedChart chart : List.of(text, json)) {
        String format = chart == text ? "text" : "json";
        List<V1Container> gantry = new ArrayList<>();
        allPods(chart).forEach(p -> gantry.addAll(p.getContainers()));
        gantry.removeIf(c -> c.getName().equals("kube-scheduler"));
        assertThat(gantry).as(mode).hasSizeGreaterThanOrEqualTo(4);
        for (V1Container c : gantry) {
          assertThat(c.getArgs())
              .as(c.getName())
              .containsOnlyOnce("--log-format=" + format)
              .noneMatch(a -> a.startsWith("--log-format=") && !a.endsWith(format));
        }
      }
    }
    V1Container scheduler =
        podSpec(RenderedChart.render(EVERY_KEY), "Deployment", "gantry-scheduler")
            .getContainers()
            .get(0);
    assertThat(scheduler.getEnv())
        .anyMatch(
            e ->
                e.getName().equals("JAVA_TOOL_OPTIONS")
                    && e.getValue().endsWith(" -Dgantry.logLevel=debug"));
  }

  @Test
  void theSchedulersHeapStartsAtItsMaximumWithinTheMemoryLimit() {
    V1Container scheduler =
        podSpec(RenderedChart.render(), "Deployment", "gantry-scheduler").getContainers().get(0);
    String options =
        scheduler.getEnv().stream()
            .filter(e -> e.getName().equals("JAVA_TOOL_OPTIONS"))
            .findFirst()
            .orElseThrow()
            .getValue();
    assertThat(options.split(" "))
        .contains("-XX:InitialRAMPercentage=75", "-XX:MaxRAMPercentage=75");
    assertThat(scheduler.getResources().getLimits().get("memory").toSuffixedString())
        .isEqualTo("2Gi");
  }

  @Test
  void theSchedulerServesItsDebugEndpointsOnThePodsLoopbackOnly() {
    V1Container scheduler =
        podSpec(RenderedChart.render(), "Deployment", "gantry-scheduler").getContainers().get(0);
    assertThat(scheduler.getArgs()).contains("--debug-address=127.0.0.1:8081");
    // not a container port: the Service cannot reach it
    assertThat(scheduler.getPorts()).extracting(p -> p.getContainerPort()).containsExactly(8080);
    assertThat(
            podSpec(RenderedChart.render(EVERY_KEY), "Deployment", "gantry-scheduler")
                .getContainers()
                .get(0)
                .getArgs())
        .contains("--debug-address=127.0.0.1:9091");
  }

  private static JsonNode webhook(RenderedChart chart) {
    return chart
        .find("MutatingWebhookConfiguration", "gantry-admission")
        .orElseThrow()
        .path("webhooks")
        .get(0);
  }

  private static V1PodSpec podSpec(RenderedChart chart, String kind, String name) {
    return switch (kind) {
      case "Deployment" ->
          chart.model(kind, name, V1Deployment.class).getSpec().getTemplate().getSpec();
      case "DaemonSet" ->
          chart.model(kind, name, V1DaemonSet.class).getSpec().getTemplate().getSpec();
      case "Job" ->
          chart
              .model(kind, name, io.kubernetes.client.openapi.models.V1Job.class)
              .getSpec()
              .getTemplate()
              .getSpec();
      default -> throw new IllegalArgumentException(kind);
    };
  }

  private static List<V1PodSpec> allPods(RenderedChart chart) {
    List<V1PodSpec> pods = new ArrayList<>();
    for (String kind : List.of("Deployment", "DaemonSet", "Job")) {
      for (ObjectNode o : chart.ofKind(kind)) {
        pods.add(podSpec(chart, kind, o.path("metadata").path("name").asText()));
      }
    }
    return pods;
  }
}
