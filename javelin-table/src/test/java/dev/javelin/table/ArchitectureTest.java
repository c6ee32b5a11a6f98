package dev.javelin.table;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The package layout of javelin-table: it uses javelin-format's API only; row maps are below the table. */
class ArchitectureTest {
  private static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    classes = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("dev.javelin.table");
  }

  @Test
  void usesOnlyTheFormatApi() {
    noClasses().should().dependOnClassesThat().resideInAPackage("dev.javelin.format.internal..")
        .check(classes);
  }

  @Test
  void rowMapsDoNotDependOnTheTable() {
    noClasses().that().resideInAPackage("dev.javelin.table.rowmap..")
        .should().dependOnClassesThat().resideInAnyPackage(
            "dev.javelin.table", "dev.javelin.table.deletion..", "dev.javelin.table.stablepartition..")
        .check(classes);
  }
}
