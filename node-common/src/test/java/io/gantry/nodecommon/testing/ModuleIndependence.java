package io.gantry.nodecommon.testing;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The ArchUnit rule that keeps the node modules apart: the device agent and the DRA driver share
 * only node-common, and node-common knows neither. Each module's test checks it over the main
 * classes on its own test classpath, so it runs in that module's {@code mvn verify}.
 */
public final class ModuleIndependence {
  private ModuleIndependence() {}

  /** Every main (non-test) class under {@code io.gantry} on this test classpath. */
  public static JavaClasses mainClasses() {
    return new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("io.gantry");
  }

  /** No class in {@code module} (a package pattern) depends on a class in {@code others}. */
  public static ArchRule independent(String module, String... others) {
    return noClasses()
        .that()
        .resideInAPackage(module)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(others)
        .because("the node modules share code only through node-common");
  }
}
