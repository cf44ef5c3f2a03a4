package io.gantry.gpusharing;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The module is shared by the scheduler, the device agent and the DRA driver, so it carries no
 * Kubernetes, gRPC or Netty types; its rules and the node inventory model need only the JDK and
 * Guava, and only the annotation codecs ({@code io.gantry.gpusharing.json} and {@code
 * io.gantry.gpusharing.inventory.json}) read JSON.
 */
class GpuSharingIsolationTest {
  private final JavaClasses classes =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("io.gantry.gpusharing");

  @Test
  void noKubernetesGrpcOrNettyTypes() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.kubernetes..", "io.fabric8..", "io.netty..", "io.grpc..", "com.google.protobuf..")
        .check(classes);
  }

  @Test
  void theRulesNeedOnlyTheJdkAndGuava() {
    classes()
        .that()
        .resideInAnyPackage("io.gantry.gpusharing", "io.gantry.gpusharing.inventory")
        .should()
        .onlyDependOnClassesThat()
        .resideInAnyPackage(
            "java..",
            "io.gantry.gpusharing",
            "io.gantry.gpusharing.inventory",
            "com.google.common..",
            "com.google.errorprone..")
        .check(classes);
  }

  @Test
  void theModuleDoesNotKnowTheScheduler() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.gantry.scheduler..",
            "io.gantry.deviceagent..",
            "io.gantry.dradriver..",
            "io.gantry.nodecommon..")
        .check(classes);
  }
}
