package dev.javelin.s3;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * javelin-s3 is a store and nothing more: it depends on javelin-common, javelin-io and the AWS SDK,
 * on nothing above them, and shows only its store and its provider.
 */
class ArchitectureTest {
  private static final JavaClasses CLASSES = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importPackages("dev.javelin.s3");

  @Test
  void dependsOnCommonAndIoOnly() {
    noClasses().should().dependOnClassesThat().resideInAnyPackage(
            "dev.javelin.format..", "dev.javelin.table..", "dev.javelin.index..", "dev.javelin.core..",
            "dev.javelin.testing..", "dev.javelin.cli..", "dev.javelin.spark..", "org.apache.arrow..")
        .check(CLASSES);
  }

  @Test
  void onlyTheStoreAndItsProviderArePublic() {
    classes().that().haveModifier(JavaModifier.PUBLIC)
        .should().haveSimpleName("S3ObjectStore").orShould().haveSimpleName("S3ObjectStoreProvider")
        .check(CLASSES);
  }
}
