package io.gantry.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import org.junit.jupiter.api.Test;

/**
 * Front doors (simulator, live scheduler, extender, command line) and kube-model, which they share,
 * use the engine through its API only: the cycle ({@code io.gantry.scheduler.cycle..}), its
 * configuration and results ({@code io.gantry.scheduler.api..}) and the snapshot values it reads
 * ({@code io.gantry.scheduler.model..}). None opens a session or knows an action or plugin class.
 */
class EngineApiOnlyTest {
  private final JavaClasses classes = MainClasses.ALL;

  @Test
  void everyFrontDoorAndTheKubernetesModelUseOnlyTheEngineApi() {
    noClasses()
        .that()
        .resideInAnyPackage(
            "io.gantry.kubemodel..",
            "io.gantry.scheduler.sim..",
            "io.gantry.scheduler.bench..",
            "io.gantry.scheduler.kube..",
            "io.gantry.extender..",
            "io.gantry.cli..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.gantry.scheduler.framework..",
            "io.gantry.scheduler.fairness..",
            "io.gantry.scheduler.actions..",
            "io.gantry.scheduler.plugins..")
        .check(classes);
  }
}
