package dev.javelin.spark;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The Spark connector is an engine: it uses the libraries' API packages, never their internals. */
class ArchitectureTest {
  @Test
  void connectorUsesOnlyApiPackages() {
    noClasses().should().dependOnClassesThat()
        .resideInAnyPackage("dev.javelin..internal..", "dev.javelin..proto..")
        .because("internal packages and generated protobuf are machinery that may change in any release")
        .check(new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.javelin.spark"));
  }
}
