package io.gantry.scheduler.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.gantry.scheduler.framework.Session;
import io.gantry.scheduler.framework.Statement;
import org.junit.jupiter.api.Test;

/**
 * The engine's layers, lowest first: snapshot values; API values (config, results, DRA and usage
 * values); the framework (session, statement, hooks); fairness rules; plugins and actions, which do
 * not know each other; the cycle a front door calls (composition root included) on top.
 */
class EngineLayersTest {
  private final JavaClasses engine =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("io.gantry.scheduler");

  @Test
  void layersOnlyLookDown() {
    layeredArchitecture()
        .consideringOnlyDependenciesInLayers()
        .layer("Model")
        .definedBy("io.gantry.scheduler.model..")
        .layer("ApiValues")
        .definedBy(
            "io.gantry.scheduler.api.config..",
            "io.gantry.scheduler.api.result..",
            "io.gantry.scheduler.api.usage..",
            "io.gantry.scheduler.api.dra..")
        .layer("Framework")
        .definedBy("io.gantry.scheduler.framework..")
        .layer("Fairness")
        .definedBy("io.gantry.scheduler.fairness..")
        .layer("Plugins")
        .definedBy("io.gantry.scheduler.plugins..")
        .layer("Actions")
        .definedBy("io.gantry.scheduler.actions..")
        .layer("Wiring")
        .definedBy("io.gantry.scheduler.cycle..")
        .whereLayer("Wiring")
        .mayNotBeAccessedByAnyLayer()
        .whereLayer("Actions")
        .mayOnlyBeAccessedByLayers("Wiring")
        .whereLayer("Plugins")
        .mayOnlyBeAccessedByLayers("Wiring")
        .whereLayer("Fairness")
        .mayOnlyBeAccessedByLayers("Plugins", "Actions", "Wiring")
        .whereLayer("Framework")
        .mayOnlyBeAccessedByLayers("Fairness", "Plugins", "Actions", "Wiring")
        .whereLayer("ApiValues")
        .mayOnlyBeAccessedByLayers("Framework", "Fairness", "Plugins", "Actions", "Wiring")
        .check(engine);
  }

  @Test
  void valueTypesOnlyLookAtValues() {
    classes()
        .that()
        .resideInAnyPackage("io.gantry.scheduler.model..", "io.gantry.scheduler.api..")
        .should()
        .onlyDependOnClassesThat()
        .resideInAnyPackage(
            "java..",
            "io.gantry.scheduler.model..",
            "io.gantry.scheduler.api..",
            "io.gantry.gpusharing",
            "com.google.common..",
            "com.google.errorprone..")
        .because("framework, fairness, actions and plugins import the values, so no value looks up")
        .check(engine);
  }

  @Test
  void onlyFrontDoorsCallTheCycle() {
    noClasses()
        .that()
        .resideInAnyPackage(
            "io.gantry.scheduler.model..",
            "io.gantry.scheduler.api..",
            "io.gantry.scheduler.framework..",
            "io.gantry.scheduler.fairness..",
            "io.gantry.scheduler.actions..",
            "io.gantry.scheduler.plugins..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.gantry.scheduler.cycle..")
        .because("the cycle is the engine's entry, above everything it composes")
        .check(engine);
  }

  @Test
  void pluginsReadTheSessionAndNeverChangePlacements() {
    noClasses()
        .that()
        .resideInAPackage("io.gantry.scheduler.plugins..")
        .should()
        .dependOnClassesThat()
        .belongToAnyOf(Session.class, Statement.class)
        .because("plugins get a read-only SessionView; only actions place tasks, by statements")
        .check(engine);
  }

  @Test
  void theEngineNeedsOnlyTheJdkGuavaAndGpuSharing() {
    classes()
        .that()
        .resideInAPackage("io.gantry.scheduler..")
        .should()
        .onlyDependOnClassesThat()
        .resideInAnyPackage(
            "java..",
            "io.gantry.scheduler..",
            "io.gantry.gpusharing",
            "com.google.common..",
            "com.google.errorprone..")
        .check(engine);
  }
}
