package io.gantry.deviceagent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import io.gantry.nodecommon.testing.ModuleIndependence;
import org.junit.jupiter.api.Test;

/** The device agent and the DRA driver are independent: they share only node-common. */
class DeviceAgentIndependenceTest {
  private static final JavaClasses MAIN = ModuleIndependence.mainClasses();

  @Test
  void theDeviceAgentDoesNotDependOnTheDraDriver() {
    ModuleIndependence.independent("io.gantry.deviceagent..", "io.gantry.dradriver..").check(MAIN);
  }

  @Test
  void nodeCommonDoesNotDependOnTheDeviceAgent() {
    ModuleIndependence.independent("io.gantry.nodecommon..", "io.gantry.deviceagent..").check(MAIN);
  }

  @Test
  void theRuleSeesTheAgentAndWhatItShares() {
    assertThat(MAIN.stream().map(JavaClass::getName))
        .contains(
            "io.gantry.deviceagent.DeviceAgentWiring",
            "io.gantry.nodecommon.discovery.GpuDiscovery");
  }

  @Test
  void theRuleNamesADependencyItForbids() {
    assertThatThrownBy(
            () ->
                ModuleIndependence.independent("io.gantry.deviceagent..", "io.gantry.nodecommon..")
                    .check(MAIN))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("io.gantry.deviceagent.DeviceAgentWiring")
        .hasMessageContaining("io.gantry.nodecommon.kube.ApiClients");
  }
}
