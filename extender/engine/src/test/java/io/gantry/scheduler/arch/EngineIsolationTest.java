package io.gantry.scheduler.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The engine decides; adapters translate. No Kubernetes, Netty, gRPC or I/O types in the engine.
 */
class EngineIsolationTest {
  private static final String[] ENGINE = {
    "io.gantry.scheduler.model..",
    "io.gantry.scheduler.api..",
    "io.gantry.scheduler.cycle..",
    "io.gantry.scheduler.framework..",
    "io.gantry.scheduler.fairness..",
    "io.gantry.scheduler.actions..",
    "io.gantry.scheduler.plugins.."
  };

  private final JavaClasses classes =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("io.gantry");

  @Test
  void engineHasNoKubernetesNettyOrGrpcTypes() {
    noClasses()
        .that()
        .resideInAnyPackage(ENGINE)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.kubernetes..", "io.fabric8..", "io.netty..", "io.grpc..", "com.google.protobuf..")
        .check(classes);
  }

  @Test
  void engineDoesNoIo() {
    noClasses()
        .that()
        .resideInAnyPackage(ENGINE)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("java.io..", "java.nio.file..", "java.net..")
        .check(classes);
  }

  @Test
  void engineImportsNoFrontDoor() {
    noClasses()
        .that()
        .resideInAnyPackage(ENGINE)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.gantry.kubemodel..",
            "io.gantry.scheduler.sim..",
            "io.gantry.scheduler.bench..",
            "io.gantry.scheduler.kube..",
            "io.gantry.extender..",
            "io.gantry.cli..")
        .because("front doors call the engine, never the other way round")
        .check(classes);
  }

  @Test
  void engineHasNoMutableStatics() {
    com.tngtech.archunit.lang.syntax.ArchRuleDefinition.fields()
        .that()
        .areDeclaredInClassesThat()
        .resideInAnyPackage(ENGINE)
        .and()
        .areStatic()
        .should()
        .beFinal()
        .check(classes);
  }
}
