package io.gantry.chart;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gantry.deviceagent.reserve.ReserveApiAccess;
import io.gantry.kubemodel.config.GpuSharingMode;
import io.gantry.kubemodel.config.GpuSharingSpec;
import io.gantry.scheduler.kube.access.ApiRule;
import io.gantry.scheduler.kube.config.SchedulerSettings;
import io.kubernetes.client.openapi.models.V1DaemonSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * GPU sharing in the chart (issue 25): by default it works next to the GPU Operator's own device
 * plugin (reservation pods; no DaemonSet of Gantry's registers {@code nvidia.com/gpu}), the
 * reservation pods' service account may patch its own pod and nothing else, and {@code
 * gpuSharing.mode=device-plugin} brings Gantry's device plugin back.
 */
class ChartGpuSharingTest {
  private static final String RESERVATIONS = GpuSharingSpec.DEFAULT_RESERVATION_NAMESPACE;

  /** Every DaemonSet container's arguments, one list per container. */
  private static List<List<String>> daemonSetArgs(RenderedChart chart) {
    List<List<String>> out = new ArrayList<>();
    for (ObjectNode ds : chart.ofKind("DaemonSet")) {
      V1DaemonSet model =
          chart.model("DaemonSet", ds.at("/metadata/name").asText(), V1DaemonSet.class);
      model
          .getSpec()
          .getTemplate()
          .getSpec()
          .getContainers()
          .forEach(c -> out.add(c.getArgs() == null ? List.of() : c.getArgs()));
    }
    return out;
  }

  @Test
  void byDefaultNoDaemonSetRegistersNvidiaGpuAndTheSchedulerUsesReservationPods() throws Exception {
    RenderedChart chart = RenderedChart.render();

    List<List<String>> args = daemonSetArgs(chart);
    assertThat(args).isNotEmpty();
    // the device agent is the only DaemonSet by default; it serves no device plugin in this mode
    assertThat(args).allMatch(a -> !a.contains("--gpu-sharing-mode=device-plugin"));
    assertThat(args).anyMatch(a -> a.contains("--gpu-sharing-mode=reservation-pods"));

    SchedulerSettings settings = ChartRenderTest.settings(chart);
    assertThat(settings.gpuSharing().mode()).isEqualTo(GpuSharingMode.RESERVATION_PODS);
    assertThat(settings.gpuSharing().reservationNamespace()).isEqualTo(RESERVATIONS);
    assertThat(settings.gpuSharing().reservationServiceAccount()).isEqualTo("gantry-reservation");
    assertThat(settings.gpuSharing().reservationImage())
        .startsWith("ghcr.io/gantry-scheduler/gantry-device-agent:");
    assertThat(chart.find("Namespace", RESERVATIONS)).isPresent();
    assertThat(chart.find("ServiceAccount", "gantry-reservation")).isPresent();
    // the admission webhook reads the same configuration, so it prepares pods for this mode
    JsonNode admission = chart.find("Deployment", "gantry-admission").orElseThrow();
    assertThat(admission.at("/spec/template/spec/containers/0/args").toString())
        .contains("--config=/etc/gantry/scheduler.yaml");
    CrossReferences.check(chart);
  }

  @Test
  void theReservationPodsServiceAccountMayPatchPodsInItsNamespaceOnly() {
    RenderedChart chart = RenderedChart.render();
    RbacGrants grants = RbacGrants.of(chart, "gantry-reservation", RESERVATIONS);
    List<ApiRule> needed =
        ReserveApiAccess.RULES.stream()
            .map(r -> new ApiRule(r.group(), r.resource(), r.verbs(), ApiRule.Scope.OWN_NAMESPACE))
            .toList();

    assertThat(grants.missing(needed)).isEmpty();
    assertThat(grants.unneeded(needed)).isEmpty();
    assertThat(grants.grants()).noneMatch(RbacGrants.Grant::clusterWide);
    for (ObjectNode binding : chart.ofKind("ClusterRoleBinding")) {
      assertThat(binding.path("subjects").toString()).doesNotContain("gantry-reservation");
    }
  }

  @Test
  void fromKubernetes130AnAdmissionPolicyHoldsTheReservationServiceAccountToItsOwnPod() {
    // 1.29 has neither ValidatingAdmissionPolicy v1 nor the token's pod-name claim
    assertThat(RenderedChart.render().ofKind("ValidatingAdmissionPolicy")).isEmpty();
    RenderedChart chart = RenderedChart.renderOn("1.30.0", Map.of());
    JsonNode policy =
        chart.find("ValidatingAdmissionPolicy", "gantry-reservation-own-pod").orElseThrow();
    JsonNode binding =
        chart.find("ValidatingAdmissionPolicyBinding", "gantry-reservation-own-pod").orElseThrow();

    assertThat(policy.at("/spec/matchConditions/0/expression").asText())
        .isEqualTo(
            "request.userInfo.username == \"system:serviceaccount:"
                + RESERVATIONS
                + ":gantry-reservation\"");
    assertThat(policy.at("/spec/validations/0/expression").asText())
        .contains("request.userInfo.extra['authentication.kubernetes.io/pod-name'][0]")
        .contains("object.metadata.name");
    assertThat(policy.at("/spec/validations/1/expression").asText())
        .isEqualTo("object.spec == oldObject.spec");
    assertThat(binding.at("/spec/policyName").asText()).isEqualTo("gantry-reservation-own-pod");
    assertThat(binding.at("/spec/validationActions/0").asText()).isEqualTo("Deny");
    assertThat(
            binding
                .at("/spec/matchResources/namespaceSelector/matchLabels")
                .path("kubernetes.io/metadata.name")
                .asText())
        .isEqualTo(RESERVATIONS);
  }

  @Test
  void inDevicePluginModeTheDeviceAgentIsTheDevicePluginAndNoReservationObjectsShip()
      throws Exception {
    RenderedChart chart = RenderedChart.render(Map.of("gpuSharing.mode", "device-plugin"));

    assertThat(daemonSetArgs(chart)).anyMatch(a -> a.contains("--gpu-sharing-mode=device-plugin"));
    assertThat(ChartRenderTest.settings(chart).gpuSharing().mode())
        .isEqualTo(GpuSharingMode.DEVICE_PLUGIN);
    assertThat(chart.find("Namespace", RESERVATIONS)).isEmpty();
    assertThat(
            RenderedChart.renderOn("1.30.0", Map.of("gpuSharing.mode", "device-plugin"))
                .ofKind("ValidatingAdmissionPolicy"))
        .isEmpty();
    CrossReferences.check(chart);
  }

  @Test
  void kubeSchedulerRoutesFractionsByGpuShareOnlyWithGantrysDevicePlugin() {
    String reservation =
        RenderedChart.render(Map.of("mode", "extender"))
            .find("ConfigMap", "gantry-kube-scheduler")
            .orElseThrow()
            .toString();
    String devicePlugin =
        RenderedChart.render(Map.of("mode", "extender", "gpuSharing.mode", "device-plugin"))
            .find("ConfigMap", "gantry-kube-scheduler")
            .orElseThrow()
            .toString();

    assertThat(reservation).doesNotContain("managedResources");
    assertThat(devicePlugin).contains("managedResources").contains("gantry.io/gpu-share");
  }
}
