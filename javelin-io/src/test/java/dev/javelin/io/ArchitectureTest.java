package dev.javelin.io;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** javelin-io knows nothing of files' contents: it depends on javelin-common only, and on no Arrow. */
class ArchitectureTest {
  @Test
  void dependsOnCommonOnly() {
    noClasses().should().dependOnClassesThat().resideInAnyPackage(
            "dev.javelin.format..", "dev.javelin.table..", "dev.javelin.index..", "dev.javelin.core..",
            "org.apache.arrow..")
        .check(new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.javelin.io"));
  }
}
