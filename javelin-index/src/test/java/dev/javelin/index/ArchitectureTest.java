package dev.javelin.index;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The package layout of javelin-index: the API is {@code IndexType}, {@code DistanceType}, the
 * params and {@code exceptions}; each index kind lives in its own package under {@code internal}.
 */
class ArchitectureTest {
  private static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    classes = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("dev.javelin.index");
  }

  @Test
  void exceptionsDoNotDependOnInternals() {
    noClasses().that().resideInAPackage("dev.javelin.index.exceptions..")
        .should().dependOnClassesThat().resideInAPackage("dev.javelin.index.internal..")
        .check(classes);
  }

  @Test
  void usesOnlyTheFormatAndTableApis() {
    noClasses().should().dependOnClassesThat().resideInAnyPackage(
            "dev.javelin.format.internal..", "dev.javelin.table.proto..", "dev.javelin.core..")
        .check(classes);
  }

  @Test
  void btreeDoesNotDependOnIvf() {
    noClasses().that().resideInAPackage("dev.javelin.index.internal.btree..")
        .should().dependOnClassesThat().resideInAPackage("dev.javelin.index.internal.ivf..")
        .check(classes);
  }
}
