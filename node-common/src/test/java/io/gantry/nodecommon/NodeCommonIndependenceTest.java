package io.gantry.nodecommon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import io.gantry.nodecommon.testing.ModuleIndependence;
import org.junit.jupiter.api.Test;

/** node-common is below both node components: it depends on neither. */
class NodeCommonIndependenceTest {
  private static final JavaClasses MAIN = ModuleIndependence.mainClasses();

  @Test
  void nodeCommonKnowsNeitherTheDeviceAgentNorTheDraDriver() {
    ModuleIndependence.independent(
            "io.gantry.nodecommon..", "io.gantry.deviceagent..", "io.gantry.dradriver..")
        .check(MAIN);
  }

  @Test
  void theRuleSeesTheModule() {
    assertThat(MAIN.stream().map(JavaClass::getName))
        .contains(
            "io.gantry.nodecommon.discovery.GpuDiscovery", "io.gantry.nodecommon.kube.ApiClients");
  }

  @Test
  void theRuleNamesADependencyItForbids() {
    assertThatThrownBy(
            () ->
                ModuleIndependence.independent("io.gantry.nodecommon..", "io.gantry.gpusharing..")
                    .check(MAIN))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("io.gantry.nodecommon.discovery.GpuDiscovery")
        .hasMessageContaining("io.gantry.gpusharing.inventory.GpuInventory");
  }
}
