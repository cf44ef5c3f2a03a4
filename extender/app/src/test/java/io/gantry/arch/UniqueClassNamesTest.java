package io.gantry.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static java.util.Comparator.comparing;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableListMultimap;
import com.google.common.collect.Multimaps;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.Collection;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * No two top-level main classes anywhere in Gantry (engine, simulator, app) share a simple name, so
 * a name says which class it is without its package: {@code QueueTree} is the engine's fair-share
 * tree, and the scenario loader's check of queue parents is {@code QueueParentCheck}. Nested
 * classes are left out ({@code SimulationResult.JobResult} is read with its outer class).
 *
 * <p>This module's tests see every module's main classes, so the rule lives here.
 */
class UniqueClassNamesTest {
  private static final JavaClasses MAIN = MainClasses.ALL;

  @Test
  void noTwoClassesShareASimpleName() {
    uniqueSimpleNames().check(MAIN);
  }

  @Test
  void theRuleSeesEveryModule() {
    assertThat(MAIN.stream().map(JavaClass::getName))
        .contains(
            "io.gantry.cli.GantryCli",
            "io.gantry.scheduler.sim.Simulator",
            "io.gantry.scheduler.fairness.QueueTree");
  }

  @Test
  void theRuleNamesBothClassesOfAClash() {
    JavaClasses clash =
        new ClassFileImporter().importClasses(java.util.Date.class, java.sql.Date.class);

    assertThatThrownBy(() -> uniqueSimpleNames().check(clash))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("java.sql.Date shares its simple name with java.util.Date")
        .hasMessageContaining("java.util.Date shares its simple name with java.sql.Date");
  }

  private static ArchRule uniqueSimpleNames() {
    return classes()
        .that()
        .areTopLevelClasses()
        .and()
        .doNotHaveSimpleName("package-info")
        // the fake API server is test support (gantry-fake-kube), on this module's test classpath
        .and()
        .resideOutsideOfPackage("io.gantry.fakekube..")
        // gRPC stubs are generated and named after the kubelet's services (two are `Registration`)
        .and()
        .haveSimpleNameNotEndingWith("Grpc")
        .should(haveASimpleNameNoOtherClassHas());
  }

  /** Compares each class with all the classes the rule tests, which {@code init} receives. */
  private static ArchCondition<JavaClass> haveASimpleNameNoOtherClassHas() {
    return new ArchCondition<>("have a simple name no other class has") {
      private ImmutableListMultimap<String, JavaClass> bySimpleName = ImmutableListMultimap.of();

      @Override
      public void init(Collection<JavaClass> all) {
        bySimpleName =
            Multimaps.index(
                ImmutableList.sortedCopyOf(comparing(JavaClass::getName), all),
                JavaClass::getSimpleName);
      }

      @Override
      public void check(JavaClass javaClass, ConditionEvents events) {
        List<String> others =
            bySimpleName.get(javaClass.getSimpleName()).stream()
                .filter(other -> !other.equals(javaClass))
                .map(JavaClass::getName)
                .toList();
        if (!others.isEmpty()) {
          events.add(
              SimpleConditionEvent.violated(
                  javaClass,
                  javaClass.getName()
                      + " shares its simple name with "
                      + String.join(", ", others)));
        }
      }
    };
  }
}
