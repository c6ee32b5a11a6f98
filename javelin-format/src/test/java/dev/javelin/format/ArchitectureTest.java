package dev.javelin.format;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The package layout of javelin-format: the API (root, {@code schema}, {@code exceptions}) sits on
 * top of {@code internal}; the exceptions depend on nothing of ours.
 */
class ArchitectureTest {
  private static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    classes = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("dev.javelin.format");
  }

  @Test
  void exceptionsAreALeaf() {
    noClasses().that().resideInAPackage("dev.javelin.format.exceptions..")
        .should().dependOnClassesThat().resideInAnyPackage(
            "dev.javelin.format", "dev.javelin.format.internal..", "dev.javelin.format.schema..")
        .check(classes);
  }

  @Test
  void schemaDoesNotReachIntoInternals() {
    noClasses().that().resideInAPackage("dev.javelin.format.schema..")
        .should().dependOnClassesThat().resideInAPackage("dev.javelin.format.internal..")
        .check(classes);
  }

  @Test
  void compressionIsBelowTheEncodings() {
    noClasses().that().resideInAPackage("dev.javelin.format.internal.compression..")
        .should().dependOnClassesThat().resideInAnyPackage(
            "dev.javelin.format", "dev.javelin.format.internal.container..",
            "dev.javelin.format.internal.encoding..", "dev.javelin.format.internal.v20..",
            "dev.javelin.format.internal.v21..")
        .check(classes);
  }

  @Test
  void containerDoesNotDependOnAVersion() {
    noClasses().that().resideInAnyPackage("dev.javelin.format.internal.container..")
        .should().dependOnClassesThat().resideInAnyPackage(
            "dev.javelin.format.internal.v20..", "dev.javelin.format.internal.v21..")
        .check(classes);
  }

  @Test
  void versionsAreIndependentOfEachOther() {
    noClasses().that().resideInAPackage("dev.javelin.format.internal.v20..")
        .should().dependOnClassesThat().resideInAPackage("dev.javelin.format.internal.v21..")
        .check(classes);
    noClasses().that().resideInAPackage("dev.javelin.format.internal.v21..")
        .should().dependOnClassesThat().resideInAPackage("dev.javelin.format.internal.v20..")
        .check(classes);
  }
}
