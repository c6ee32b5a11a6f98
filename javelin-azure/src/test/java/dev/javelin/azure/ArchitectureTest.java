package dev.javelin.azure;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * javelin-azure is a store and nothing else: it depends on javelin-common, javelin-io and the
 * Azure SDK, never on the table format above it, and shows only its provider and store.
 */
class ArchitectureTest {
  private static final JavaClasses CLASSES = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importPackages("dev.javelin.azure");

  @Test
  void dependsOnTheStoreSeamOnly() {
    noClasses().should().dependOnClassesThat().resideInAnyPackage(
            "dev.javelin.format..", "dev.javelin.table..", "dev.javelin.index..", "dev.javelin.core..",
            "dev.javelin.testing..", "org.apache.arrow..", "io.netty..")
        .check(CLASSES);
  }

  @Test
  void onlyTheProviderAndTheStoreArePublic() {
    classes().that().arePublic().and().areTopLevelClasses()
        .should().haveSimpleNameEndingWith("AzureObjectStoreProvider")
        .orShould().haveSimpleName("AzureObjectStore")
        .check(CLASSES);
  }
}
