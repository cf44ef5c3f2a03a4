package io.gantry.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gantry.fakekube.FakeKubeServer;
import io.gantry.fakekube.ResourceKinds;
import io.gantry.scheduler.kube.KubeClients;
import io.gantry.scheduler.kube.crd.CrdInstaller;
import io.kubernetes.client.openapi.models.V1CustomResourceDefinition;
import io.kubernetes.client.util.Yaml;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code gantry crds apply}, the chart's pre-upgrade hook, against the fake API server. */
class CrdsApplyE2eTest {
  @Test
  void createsTheMissingCrdsThenReplacesThemWithTheBundledOnes() throws Exception {
    try (FakeKubeServer kube = FakeKubeServer.start()) {
      CrdInstaller installer = new CrdInstaller(KubeClients.forUrl(kube.url()));

      List<CrdInstaller.Outcome> first = new ArrayList<>();
      for (V1CustomResourceDefinition crd : CrdInstaller.bundled()) {
        first.add(installer.apply(crd));
      }
      List<CrdInstaller.Outcome> second = new ArrayList<>();
      for (V1CustomResourceDefinition crd : CrdInstaller.bundled()) {
        second.add(installer.apply(crd));
      }

      assertThat(first).containsOnly(CrdInstaller.Outcome.CREATED).hasSize(3);
      assertThat(second).containsOnly(CrdInstaller.Outcome.REPLACED).hasSize(3);
      assertThat(kube.store().list(ResourceKinds.CUSTOM_RESOURCE_DEFINITIONS, ""))
          .extracting(crd -> crd.path("metadata").path("name").asText())
          .containsExactlyInAnyOrder(
              "queues.scheduling.run.ai",
              "podgroups.scheduling.run.ai",
              "topologies.kai.scheduler");
      assertThat(
              kube.store()
                  .get(ResourceKinds.CUSTOM_RESOURCE_DEFINITIONS, "", "queues.scheduling.run.ai")
                  .orElseThrow()
                  .at("/spec/names/shortNames/0")
                  .asText())
          .isEqualTo("q");
      assertThat(E2eCluster.ungranted(kube.accesses(), CrdInstaller.API_ACCESS)).isEmpty();
      assertThat(kube.accesses().byUserAgentPrefix(KubeClients.USER_AGENT)).isNotEmpty();
    }
  }

  @Test
  void overKaisPodGroupDefinitionItKeepsEveryFieldAndVersionOfKais() throws Exception {
    try (FakeKubeServer kube = FakeKubeServer.start();
        InputStream in =
            getClass().getResourceAsStream("/io/gantry/crds-kai/podgroups.scheduling.run.ai.yaml");
        Reader kai = new InputStreamReader(in, StandardCharsets.UTF_8)) {
      V1CustomResourceDefinition kaiCrd = Yaml.loadAs(kai, V1CustomResourceDefinition.class);
      kube.store().create((ObjectNode) new ObjectMapper().readTree(kaiCrd.toJson()));
      CrdInstaller installer = new CrdInstaller(KubeClients.forUrl(kube.url()));

      for (V1CustomResourceDefinition crd : CrdInstaller.bundled()) {
        installer.apply(crd);
      }

      JsonNode applied =
          kube.store()
              .get(ResourceKinds.CUSTOM_RESOURCE_DEFINITIONS, "", "podgroups.scheduling.run.ai")
              .orElseThrow();
      JsonNode status =
          applied.at("/spec/versions/0/schema/openAPIV3Schema/properties/status/properties");
      assertThat(applied.at("/spec/versions/0/name").asText()).isEqualTo("v2alpha2");
      for (String field :
          List.of(
              "phase",
              "running",
              "pending",
              "succeeded",
              "failed",
              "lastTransitionReason",
              "conditions",
              "schedulingConditions",
              "resourcesStatus")) {
        assertThat(status.has(field)).as(field).isTrue();
      }
      assertThat(
              applied
                  .at("/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties")
                  .has("subGroups"))
          .isTrue();
      assertThat(applied.at("/spec/versions/1/name").asText()).isEqualTo("v2alpha1");
      assertThat(applied.at("/spec/conversion/strategy").asText()).isEqualTo("Webhook");
    }
  }
}
