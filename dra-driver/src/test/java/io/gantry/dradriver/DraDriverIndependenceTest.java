package io.gantry.dradriver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import io.gantry.nodecommon.testing.ModuleIndependence;
import org.junit.jupiter.api.Test;

/** The DRA driver and the device agent are independent: they share only node-common. */
class DraDriverIndependenceTest {
  private static final JavaClasses MAIN = ModuleIndependence.mainClasses();

  @Test
  void theDraDriverDoesNotDependOnTheDeviceAgent() {
    ModuleIndependence.independent("io.gantry.dradriver..", "io.gantry.deviceagent..").check(MAIN);
  }

  @Test
  void nodeCommonDoesNotDependOnTheDraDriver() {
    ModuleIndependence.independent("io.gantry.nodecommon..", "io.gantry.dradriver..").check(MAIN);
  }

  @Test
  void theRuleSeesTheDriverAndWhatItShares() {
    assertThat(MAIN.stream().map(JavaClass::getName))
        .contains("io.gantry.dradriver.DraDriverWiring", "io.gantry.nodecommon.kube.ApiClients");
  }

  @Test
  void theRuleNamesADependencyItForbids() {
    assertThatThrownBy(
            () ->
                ModuleIndependence.independent("io.gantry.dradriver..", "io.gantry.nodecommon..")
                    .check(MAIN))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("io.gantry.dradriver.DraDriverWiring")
        .hasMessageContaining("io.gantry.nodecommon.kube.ApiClients");
  }
}
