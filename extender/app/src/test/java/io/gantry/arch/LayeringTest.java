package io.gantry.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import io.gantry.scheduler.kube.ScenarioReadingKubeClass;
import org.junit.jupiter.api.Test;

/**
 * Which module may import which, across modules: kube-model (Kubernetes and KAI objects and files
 * into engine values) imports no front door, so every front door can use it; the live scheduler
 * does not build on the simulator. That the engine imports no front door is {@code
 * EngineIsolationTest}'s rule, in the engine module.
 *
 * <p>This module's tests see every module's main classes, so these rules live here.
 */
class LayeringTest {
  private static final String[] FRONT_DOORS = {
    "io.gantry.scheduler.sim..",
    "io.gantry.scheduler.bench..",
    "io.gantry.scheduler.kube..",
    "io.gantry.extender..",
    "io.gantry.cli.."
  };

  private static final JavaClasses MAIN = MainClasses.ALL;

  @Test
  void theRulesSeeEveryModule() {
    assertThat(MAIN.stream().map(JavaClass::getName))
        .contains(
            "io.gantry.scheduler.cycle.SchedulingCycle",
            "io.gantry.kubemodel.config.SchedulerFileLoader",
            "io.gantry.scheduler.sim.Simulator",
            "io.gantry.scheduler.kube.KubeScheduler",
            "io.gantry.cli.GantryCli");
  }

  @Test
  void kubeModelImportsNoFrontDoor() {
    noClasses()
        .that()
        .resideInAPackage("io.gantry.kubemodel..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(FRONT_DOORS)
        .because("every front door reads Kubernetes objects and files through kube-model")
        .check(MAIN);
  }

  @Test
  void theLiveSchedulerDoesNotBuildOnTheSimulator() {
    liveSchedulerImportsNoSimulator().check(MAIN);
  }

  @Test
  void theSimulatorRuleNamesTheClassThatBreaksIt() {
    JavaClasses bad = new ClassFileImporter().importClasses(ScenarioReadingKubeClass.class);

    assertThatThrownBy(() -> liveSchedulerImportsNoSimulator().check(bad))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining(ScenarioReadingKubeClass.class.getName())
        .hasMessageContaining("io.gantry.scheduler.sim.spec.ScenarioLoader");
  }

  private static ArchRule liveSchedulerImportsNoSimulator() {
    return noClasses()
        .that()
        .resideInAPackage("io.gantry.scheduler.kube..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("io.gantry.scheduler.sim..", "io.gantry.scheduler.bench..")
        .because("what the live scheduler shares with the simulator lives in kube-model");
  }
}
