package io.gantry.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import io.gantry.extender.ImportsTheLiveScheduler;
import org.junit.jupiter.api.Test;

/**
 * The front doors — the simulator ({@code sim..}, {@code bench..}), the live scheduler ({@code
 * kube..}) and the extender ({@code extender..}) — never import each other: each reaches the engine
 * and kube-model on its own. Only the command line ({@code io.gantry.cli..}) joins them.
 */
class FrontDoorsTest {
  private static final String SIMULATOR = "io.gantry.scheduler.sim..";
  private static final String BENCH = "io.gantry.scheduler.bench..";
  private static final String LIVE_SCHEDULER = "io.gantry.scheduler.kube..";
  private static final String EXTENDER = "io.gantry.extender..";
  private static final String CLI = "io.gantry.cli..";

  private final JavaClasses classes = MainClasses.ALL;

  @Test
  void theSimulatorImportsNoOtherFrontDoor() {
    simulatorImportsNoOtherFrontDoor().check(classes);
  }

  @Test
  void theLiveSchedulerImportsNoOtherFrontDoor() {
    liveSchedulerImportsNoOtherFrontDoor().check(classes);
  }

  @Test
  void theExtenderImportsNoOtherFrontDoor() {
    extenderImportsNoOtherFrontDoor().check(classes);
  }

  @Test
  void theRuleNamesAnExtenderClassThatImportsTheLiveScheduler() {
    JavaClasses bad = new ClassFileImporter().importClasses(ImportsTheLiveScheduler.class);

    assertThatThrownBy(() -> extenderImportsNoOtherFrontDoor().check(bad))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("io.gantry.extender.ImportsTheLiveScheduler")
        .hasMessageContaining("io.gantry.scheduler.kube.LiveSchedulerWiring");
  }

  private static ArchRule simulatorImportsNoOtherFrontDoor() {
    return noClasses()
        .that()
        .resideInAnyPackage(SIMULATOR, BENCH)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(LIVE_SCHEDULER, EXTENDER, CLI);
  }

  /** The simulator's side of this rule is {@code LayeringTest}'s, which says why. */
  private static ArchRule liveSchedulerImportsNoOtherFrontDoor() {
    return noClasses()
        .that()
        .resideInAnyPackage(LIVE_SCHEDULER)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(EXTENDER, CLI);
  }

  private static ArchRule extenderImportsNoOtherFrontDoor() {
    return noClasses()
        .that()
        .resideInAnyPackage(EXTENDER)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(SIMULATOR, BENCH, LIVE_SCHEDULER, CLI);
  }
}
