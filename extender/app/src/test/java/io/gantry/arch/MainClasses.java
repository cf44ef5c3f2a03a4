package io.gantry.arch;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

/**
 * Every main class of Gantry on this module's test class path, imported once for all the
 * architecture tests here: each import reads every class file again and costs seconds.
 */
final class MainClasses {
  static final JavaClasses ALL =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("io.gantry");

  private MainClasses() {}
}
