package io.gantry.scheduler.kube.crd;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.kubernetes.client.openapi.models.V1CustomResourceDefinition;
import io.kubernetes.client.openapi.models.V1CustomResourceDefinitionVersion;
import io.kubernetes.client.openapi.models.V1JSONSchemaProps;
import io.kubernetes.client.util.Yaml;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Gantry's PodGroup CRD applied over the one KAI installs keeps everything KAI's accepts. */
class CrdSupersetTest {
  /** KAI's PodGroup CRD as a cluster that runs KAI has it (test resource). */
  static V1CustomResourceDefinition kaiPodGroups() throws IOException {
    try (InputStream in =
            CrdSupersetTest.class.getResourceAsStream(
                "/io/gantry/crds-kai/podgroups.scheduling.run.ai.yaml");
        Reader reader = new InputStreamReader(in, StandardCharsets.UTF_8)) {
      return Yaml.loadAs(reader, V1CustomResourceDefinition.class);
    }
  }

  static V1CustomResourceDefinition gantryPodGroups() {
    return CrdInstaller.bundled().stream()
        .filter(c -> c.getMetadata().getName().equals("podgroups.scheduling.run.ai"))
        .findFirst()
        .orElseThrow();
  }

  private static V1CustomResourceDefinitionVersion version(
      V1CustomResourceDefinition crd, String name) {
    return crd.getSpec().getVersions().stream()
        .filter(v -> v.getName().equals(name))
        .findFirst()
        .orElseThrow();
  }

  private static V1JSONSchemaProps schema(V1CustomResourceDefinition crd, String property) {
    return version(crd, "v2alpha2").getSchema().getOpenAPIV3Schema().getProperties().get(property);
  }

  @Test
  void gantrysPodGroupStatusHasEveryFieldKaiWrites() throws IOException {
    assertThat(schema(gantryPodGroups(), "status").getProperties())
        .containsKeys(
            "phase",
            "running",
            "pending",
            "succeeded",
            "failed",
            "conditions",
            "schedulingConditions",
            "resourcesStatus");
    // the one field of the fixture Gantry's definition lacks is what a later KAI may add
    assertThat(schema(kaiPodGroups(), "status").getProperties().keySet())
        .containsAll(schema(gantryPodGroups(), "status").getProperties().keySet());
  }

  @Test
  void overKaisDefinitionEveryFieldVersionAndValueOfKaisIsKept() throws IOException {
    V1CustomResourceDefinition gantry = gantryPodGroups();
    String before = gantry.toJson();

    V1CustomResourceDefinition united = CrdSuperset.of(gantry, kaiPodGroups());

    assertThat(gantry.toJson()).as("Gantry's definition is not changed").isEqualTo(before);
    assertThat(schema(united, "status").getProperties())
        .containsKeys("phase", "running", "pending", "failed", "lastTransitionReason")
        .containsKeys("conditions", "schedulingConditions", "resourcesStatus");
    // Gantry's own fields stay
    assertThat(schema(united, "spec").getProperties())
        .containsKeys("minMember", "minSubGroup", "queue", "subGroups", "topologyConstraint");
    // only what both require; every enum value of both
    assertThat(schema(united, "spec").getRequired()).isNullOrEmpty();
    assertThat(schema(united, "spec").getProperties().get("preemptibility").getEnum())
        .containsExactly("preemptible", "non-preemptible", "");
    // KAI's older version stays served, Gantry's stays the storage version
    assertThat(version(united, "v2alpha1").getServed()).isTrue();
    assertThat(version(united, "v2alpha1").getStorage()).isFalse();
    assertThat(version(united, "v2alpha2").getStorage()).isTrue();
    assertThat(united.getSpec().getConversion().getStrategy()).isEqualTo("Webhook");
    assertThat(version(united, "v2alpha2").getAdditionalPrinterColumns())
        .extracting(c -> c.getName())
        .contains("Phase");
    assertThat(united.getSpec().getNames().getShortNames()).containsExactly("pg");
    assertThat(united.getSpec().getNames().getCategories()).containsExactly("kai");
    // a nested schema keeps KAI's preserve-unknown-fields
    assertThat(
            new ObjectMapper()
                .readTree(united.toJson())
                .at(
                    "/spec/versions/0/schema/openAPIV3Schema/properties/status/properties"
                        + "/schedulingConditions/items/properties/reasons/items/properties/details"
                        + "/x-kubernetes-preserve-unknown-fields")
                .asBoolean())
        .isTrue();
  }

  @Test
  void overItselfGantrysDefinitionIsUnchanged() {
    V1CustomResourceDefinition gantry = gantryPodGroups();

    assertThat(CrdSuperset.of(gantry, gantryPodGroups()).toJson()).isEqualTo(gantry.toJson());
  }
}
