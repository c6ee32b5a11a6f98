package dev.javelin.testing;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * javelin-testing sits right above javelin-io: the modules above use it in test scope, so it
 * must not use them (a Maven cycle).
 */
class ArchitectureTest {
  @Test
  void dependsOnNothingAboveJavelinIo() {
    noClasses().should().dependOnClassesThat().resideInAnyPackage(
            "dev.javelin.format..", "dev.javelin.table..", "dev.javelin.index..", "dev.javelin.core..",
            "dev.javelin.cli..", "dev.javelin.spark..", "dev.javelin.compat..", "dev.javelin.bench..")
        .check(new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.javelin.testing"));
  }
}
