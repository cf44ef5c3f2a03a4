package io.gantry.chart;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.gantry.deviceagent.nodeagent.NodeAgentServer;
import io.gantry.kubemodel.config.SchedulerFileLoader;
import io.gantry.scheduler.kube.config.SchedulerConfigFile;
import io.gantry.scheduler.kube.config.SchedulerSettings;
import io.gantry.scheduler.kube.crd.CrdInstaller;
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
  private static final Set<String> CUSTOM_KINDS =
      Set.of("Queue", "ServiceMonitor", "PodMonitor", "Issuer", "Certificate");

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
        .containsExactly("crds", "apply", "--log-format=text");
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
  void extenderModeRunsTheExtenderOnceAndASecondKubeSchedulerCallingIt() throws Exception {
    // Gantry's device plugin, the default before reservation pods: fractions are routed by
    // gantry.io/gpu-share (ChartGpuSharingTest has the reservation-pods side)
    RenderedChart chart =
        RenderedChart.render(
            Map.of(
                "mode", "extender", "scheduler.replicas", 3, "gpuSharing.mode", "device-plugin"));

    assertThat(chart.find("Deployment", "gantry-scheduler")).isEmpty();
    V1Deployment extender = chart.model("Deployment", "gantry-extender", V1Deployment.class);
    assertThat(extender.getSpec().getReplicas()).isEqualTo(1);
    assertThat(extender.getSpec().getTemplate().getSpec().getContainers().get(0).getArgs())
        .contains("extender", "--port=8888", "--fair-share-waiting", "--http-timeout=5s");
    assertThat(settings(chart, "gantry-extender").leaderElection().enabled()).isFalse();
    JsonNode config = kubeSchedulerConfiguration(chart);
    assertThat(config.path("profiles").get(0).path("schedulerName").asText())
        .isEqualTo("gantry-scheduler");
    JsonNode ext = config.path("extenders").get(0);
    assertThat(ext.path("urlPrefix").asText())
        .isEqualTo("https://gantry-extender.gantry-system.svc:8888");
    assertThat(ext.path("nodeCacheCapable").asBoolean()).isTrue();
    assertThat(ext.path("ignorable").asBoolean()).isFalse();
    assertThat(ext.path("managedResources").get(0).path("name").asText())
        .isEqualTo("gantry.io/gpu-share");
    assertThat(ext.path("managedResources").get(0).path("ignoredByScheduler").asBoolean()).isTrue();
    assertThat(chart.find("Deployment", "gantry-kube-scheduler")).isPresent();
    CrossReferences.check(chart);
  }

  @Test
  void extenderConfigMapModeRendersTheConfigurationForTheClustersKubeScheduler() throws Exception {
    RenderedChart chart =
        RenderedChart.render(
            Map.of(
                "mode", "extender",
                "extender.kubeScheduler.mode", "configMap",
                "scheduler.config.schedulerName", "default-scheduler"));

    assertThat(chart.find("Deployment", "gantry-kube-scheduler")).isEmpty();
    JsonNode config = kubeSchedulerConfiguration(chart);
    assertThat(config.path("clientConnection").path("kubeconfig").asText())
        .isEqualTo("/etc/kubernetes/scheduler.conf");
    assertThat(config.path("extenders").get(0).path("bindVerb").asText()).isEqualTo("bind");
    assertThat(settings(chart, "gantry-extender").schedulerName()).isEqualTo("default-scheduler");
    CrossReferences.check(chart);
  }

  @Test
  void theDeviceAgentRunsOnGpuNodesOnlyWithTheKubeletsPluginDirectory() {
    RenderedChart chart = RenderedChart.render();
    io.kubernetes.client.openapi.models.V1DaemonSet ds =
        chart.model(
            "DaemonSet",
            "gantry-device-agent",
            io.kubernetes.client.openapi.models.V1DaemonSet.class);
    io.kubernetes.client.openapi.models.V1PodSpec pod = ds.getSpec().getTemplate().getSpec();

    assertThat(pod.getNodeSelector()).containsEntry("nvidia.com/gpu.present", "true");
    assertThat(pod.getTolerations()).anyMatch(t -> "nvidia.com/gpu".equals(t.getKey()));
    assertThat(pod.getVolumes())
        .anyMatch(
            v ->
                v.getHostPath() != null
                    && v.getHostPath().getPath().equals("/var/lib/kubelet/device-plugins"));
    assertThat(pod.getContainers().get(0).getArgs())
        .contains("serve")
        .doesNotContain("--evict-over-grant");
    assertThat(pod.getContainers().get(0).getSecurityContext().getReadOnlyRootFilesystem())
        .isTrue();
    // the root filesystem is read-only: the node-agent socket's directory comes from the host
    String socketDirectory = Path.of(NodeAgentServer.DEFAULT_SOCKET).getParent().toString();
    assertThat(pod.getContainers().get(0).getVolumeMounts())
        .extracting(io.kubernetes.client.openapi.models.V1VolumeMount::getMountPath)
        .contains(socketDirectory);
    assertThat(pod.getVolumes())
        .filteredOn(v -> v.getHostPath() != null)
        .extracting(v -> v.getHostPath().getPath())
        .contains(socketDirectory);
    assertThat(RenderedChart.render(Map.of("deviceAgent.enabled", false)).ofKind("DaemonSet"))
        .isEmpty();
  }

  @Test
  void withMpsTheDeviceAgentRunsDaemonsOnTheHostsMpsDirectories() {
    io.kubernetes.client.openapi.models.V1PodSpec pod =
        RenderedChart.render(Map.of("deviceAgent.mps.enabled", true))
            .model(
                "DaemonSet",
                "gantry-device-agent",
                io.kubernetes.client.openapi.models.V1DaemonSet.class)
            .getSpec()
            .getTemplate()
            .getSpec();
    io.kubernetes.client.openapi.models.V1Container agent = pod.getContainers().get(0);

    assertThat(agent.getArgs()).contains("--mps");
    assertThat(agent.getEnv())
        .anyMatch(
            e ->
                e.getName().equals("NVIDIA_DRIVER_CAPABILITIES")
                    && e.getValue().equals("compute,utility"));
    assertThat(agent.getVolumeMounts())
        .extracting(io.kubernetes.client.openapi.models.V1VolumeMount::getMountPath)
        .contains("/tmp/nvidia-mps", "/var/log/nvidia-mps");
    assertThat(pod.getVolumes())
        .filteredOn(v -> v.getHostPath() != null)
        .extracting(v -> v.getHostPath().getPath())
        .contains("/tmp/nvidia-mps", "/var/log/nvidia-mps");
  }

  @Test
  void withDraOffNothingOfTheDriverIsRendered() {
    RenderedChart chart = RenderedChart.render();

    assertThat(chart.ofKind("DeviceClass")).isEmpty();
    assertThat(kindsAndNames(chart))
        .noneMatch(n -> n.endsWith("/gantry-dra-driver"))
        .contains("DaemonSet/gantry-device-agent");
  }

  @Test
  void withDraOnTheDriverRunsOnGpuNodesWithTheKubeletsPluginDirsAndItsDeviceClassShips() {
    RenderedChart chart = RenderedChart.render(Map.of("draDriver.enabled", true));
    io.kubernetes.client.openapi.models.V1DaemonSet ds =
        chart.model(
            "DaemonSet",
            "gantry-dra-driver",
            io.kubernetes.client.openapi.models.V1DaemonSet.class);
    io.kubernetes.client.openapi.models.V1PodSpec pod = ds.getSpec().getTemplate().getSpec();
    io.kubernetes.client.openapi.models.V1DeviceClass deviceClass =
        chart.model(
            "DeviceClass",
            "gpu.gantry.io",
            io.kubernetes.client.openapi.models.V1DeviceClass.class);

    assertThat(kindsAndNames(chart))
        .contains(
            "ServiceAccount/gantry-dra-driver",
            "ClusterRole/gantry-dra-driver",
            "ClusterRoleBinding/gantry-dra-driver",
            "DaemonSet/gantry-dra-driver",
            "DeviceClass/gpu.gantry.io");
    assertThat(deviceClass.getSpec().getSelectors())
        .singleElement()
        .satisfies(
            s ->
                assertThat(s.getCel().getExpression())
                    .isEqualTo("device.driver == 'gpu.gantry.io'"));
    assertThat(pod.getNodeSelector()).containsEntry("nvidia.com/gpu.present", "true");
    assertThat(pod.getTolerations()).anyMatch(t -> "nvidia.com/gpu".equals(t.getKey()));
    assertThat(pod.getContainers().get(0).getArgs())
        .containsExactly(
            "serve",
            "--plugin-registry-dir=/var/lib/kubelet/plugins_registry",
            "--plugin-dir=/var/lib/kubelet/plugins/gpu.gantry.io",
            "--cdi-dir=/var/run/cdi",
            "--discovery-interval=30",
            "--http-port=8080",
            "--log-format=text");
    assertThat(pod.getVolumes())
        .filteredOn(v -> v.getHostPath() != null)
        .extracting(v -> v.getHostPath().getPath())
        .containsExactly(
            "/var/lib/kubelet/plugins_registry",
            "/var/lib/kubelet/plugins/gpu.gantry.io",
            "/var/run/cdi");
    assertThat(pod.getContainers().get(0).getVolumeMounts())
        .extracting(m -> m.getMountPath())
        .contains(
            "/var/lib/kubelet/plugins_registry",
            "/var/lib/kubelet/plugins/gpu.gantry.io",
            "/var/run/cdi");
    assertThat(pod.getContainers().get(0).getSecurityContext().getReadOnlyRootFilesystem())
        .isTrue();
    CrossReferences.check(chart);
  }

  @Test
  void theWebhookIsServedOverHttpsByTheAdmissionServerInSchedulerMode() {
    RenderedChart chart = RenderedChart.render();
    JsonNode hook =
        chart
            .find("MutatingWebhookConfiguration", "gantry-admission")
            .orElseThrow()
            .path("webhooks")
            .get(0);

    assertThat(hook.path("clientConfig").path("service").path("name").asText())
        .isEqualTo("gantry-admission");
    assertThat(hook.path("clientConfig").path("service").path("path").asText()).isEqualTo("/admit");
    assertThat(hook.path("clientConfig").path("caBundle").asText())
        .isEqualTo(
            chart
                .find("Secret", "gantry-webhook-tls")
                .orElseThrow()
                .path("data")
                .path("ca.crt")
                .asText());
    assertThat(hook.path("failurePolicy").asText()).isEqualTo("Fail");
    assertThat(hook.path("namespaceSelector").path("matchExpressions").get(0).path("values"))
        .extracting(JsonNode::asText)
        .containsExactly(RenderedChart.NAMESPACE, "kube-system");
    V1Deployment admission = chart.model("Deployment", "gantry-admission", V1Deployment.class);
    assertThat(admission.getSpec().getTemplate().getSpec().getContainers().get(0).getArgs())
        .contains(
            "extender", "--tls-cert-file=/etc/gantry/tls/tls.crt", "--webhook-failure-policy=Fail");
    CrossReferences.check(chart);
  }

  @Test
  void inExtenderModeTheExtenderServesTheWebhookAndKubeSchedulerCallsItOverHttps()
      throws Exception {
    RenderedChart chart = RenderedChart.render(Map.of("mode", "extender"));
    JsonNode hook =
        chart
            .find("MutatingWebhookConfiguration", "gantry-admission")
            .orElseThrow()
            .path("webhooks")
            .get(0);
    JsonNode ext = kubeSchedulerConfiguration(chart).path("extenders").get(0);

    assertThat(hook.path("clientConfig").path("service").path("name").asText())
        .isEqualTo("gantry-extender");
    assertThat(chart.find("Deployment", "gantry-admission")).isEmpty();
    assertThat(ext.path("urlPrefix").asText()).startsWith("https://gantry-extender.");
    assertThat(ext.path("enableHTTPS").asBoolean()).isTrue();
    assertThat(ext.path("tlsConfig").path("caFile").asText())
        .isEqualTo("/etc/kubernetes/gantry-tls/ca.crt");
    CrossReferences.check(chart);
  }

  @Test
  void withCertManagerTheCertificateIsIssuedAndItsCaInjected() {
    RenderedChart chart = RenderedChart.render(Map.of("webhook.certManager.enabled", true));
    ObjectNode config =
        chart.find("MutatingWebhookConfiguration", "gantry-admission").orElseThrow();

    assertThat(chart.find("Secret", "gantry-webhook-tls")).isEmpty();
    assertThat(
            chart
                .find("Certificate", "gantry-webhook-tls")
                .orElseThrow()
                .at("/spec/dnsNames/0")
                .asText())
        .isEqualTo("gantry-admission.gantry-system.svc");
    assertThat(config.at("/metadata/annotations").path("cert-manager.io/inject-ca-from").asText())
        .isEqualTo("gantry-system/gantry-webhook-tls");
    assertThat(config.at("/webhooks/0/clientConfig").has("caBundle")).isFalse();
    CrossReferences.check(chart);
  }

  @Test
  void withoutTheWebhookTheExtenderSpeaksPlainHttp() throws Exception {
    RenderedChart chart =
        RenderedChart.render(Map.of("mode", "extender", "webhook.enabled", false));

    assertThat(chart.ofKind("MutatingWebhookConfiguration")).isEmpty();
    assertThat(kubeSchedulerConfiguration(chart).at("/extenders/0/urlPrefix").asText())
        .startsWith("http://");
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

  private static JsonNode kubeSchedulerConfiguration(RenderedChart chart) throws Exception {
    String text =
        chart
            .find("ConfigMap", "gantry-kube-scheduler")
            .orElseThrow()
            .path("data")
            .path("config.yaml")
            .asText();
    JsonNode config = new YAMLMapper().readTree(text);
    assertThat(config.path("kind").asText()).isEqualTo("KubeSchedulerConfiguration");
    assertThat(config.path("apiVersion").asText()).isEqualTo("kubescheduler.config.k8s.io/v1");
    return config;
  }

  static SchedulerSettings settings(RenderedChart chart) throws Exception {
    return settings(chart, "gantry-scheduler");
  }

  static SchedulerSettings settings(RenderedChart chart, String configMap) throws Exception {
    String text =
        chart
            .find("ConfigMap", configMap)
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
