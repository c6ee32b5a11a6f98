package dev.javelin.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

/**
 * The CLI is an engine: it uses the libraries' API packages, never their internals or their
 * generated protobuf classes.
 */
class ArchitectureTest {
  static final ArchRule NO_INTERNALS = noClasses().should().dependOnClassesThat()
      .resideInAnyPackage("dev.javelin..internal..", "dev.javelin..proto..")
      .because("internal packages and generated protobuf are machinery that may change in any release");

  @Test
  void cliUsesOnlyApiPackages() {
    NO_INTERNALS.check(new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("dev.javelin.cli"));
  }

  @Test
  void theRuleCatchesAnImportOfAnInternalPackage() {
    assertThatThrownBy(() -> NO_INTERNALS.check(
            new ClassFileImporter().importPackages("dev.javelin.cli.archfixture")))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("dev.javelin.cli.archfixture.ReachesIntoInternals")
        .hasMessageContaining("dev.javelin.format.internal.v21.V21Encoding");
  }

  @Test
  void theRuleCatchesAUseOfAGeneratedProtobufClass() {
    assertThatThrownBy(() -> NO_INTERNALS.check(
            new ClassFileImporter().importPackages("dev.javelin.cli.archfixture")))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("dev.javelin.cli.archfixture.ReachesIntoProtos")
        .hasMessageContaining("dev.javelin.table.proto.TableProtos");
  }
}
