package dev.javelin.core;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The package layout of javelin-core: the expression language and the exceptions are below
 * everything else; the internals never call back into the maintenance packages' entry points.
 */
class ArchitectureTest {
  private static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    classes = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("dev.javelin.core");
  }

  @Test
  void expressionsAreALeaf() {
    noClasses().that().resideInAPackage("dev.javelin.core.expr..")
        .should().dependOnClassesThat().resideInAnyPackage(
            "dev.javelin.core", "dev.javelin.core.internal..", "dev.javelin.core.compaction..",
            "dev.javelin.core.cluster..", "dev.javelin.table..", "dev.javelin.index..")
        .check(classes);
  }

  @Test
  void exceptionsDoNotDependOnInternals() {
    noClasses().that().resideInAPackage("dev.javelin.core.exceptions..")
        .should().dependOnClassesThat().resideInAnyPackage(
            "dev.javelin.core.internal..", "dev.javelin.format.internal..", "dev.javelin.index.internal..")
        .check(classes);
  }

  @Test
  void internalsDoNotDependOnClustering() {
    noClasses().that().resideInAPackage("dev.javelin.core.internal..")
        .should().dependOnClassesThat().resideInAPackage("dev.javelin.core.cluster..")
        .check(classes);
  }
}
