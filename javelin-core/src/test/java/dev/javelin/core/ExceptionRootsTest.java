package dev.javelin.core;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.javelin.common.JavelinException;
import dev.javelin.core.exceptions.ClusterException;
import dev.javelin.core.exceptions.CompactionException;
import dev.javelin.core.exceptions.ExpressionException;
import dev.javelin.core.exceptions.IndexExistsException;
import dev.javelin.core.exceptions.IndexNotFoundException;
import dev.javelin.core.exceptions.InvalidUpdateException;
import dev.javelin.core.exceptions.SchemaEvolutionException;
import dev.javelin.format.exceptions.BadDataException;
import dev.javelin.format.exceptions.LanceFormatException;
import dev.javelin.format.exceptions.UnsupportedEncodingException;
import dev.javelin.index.exceptions.VectorIndexException;
import dev.javelin.table.exceptions.TableException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every exception Javelin throws on purpose is a {@link JavelinException}: one catch tells them from bugs. */
class ExceptionRootsTest {
  @Test
  void eachModulesRootsAreJavelinExceptions() {
    List<Class<? extends Throwable>> roots = List.of(
        LanceFormatException.class, BadDataException.class, UnsupportedEncodingException.class, // format
        TableException.class, // table
        VectorIndexException.class, // index
        ClusterException.class, CompactionException.class, ExpressionException.class, // core
        InvalidUpdateException.class, SchemaEvolutionException.class, IndexExistsException.class,
        IndexNotFoundException.class);
    for (Class<? extends Throwable> root : roots) {
      assertThat(JavelinException.class.isAssignableFrom(root)).as(root.getName()).isTrue();
    }
    // Expression errors were IllegalArgumentExceptions once; nothing may rely on that any more.
    assertThat(IllegalArgumentException.class.isAssignableFrom(ExpressionException.class)).isFalse();
  }

  @Test
  void everyExceptionOfAnExceptionsPackageIsAJavelinException() {
    classes().that().resideInAnyPackage("dev.javelin.format.exceptions..", "dev.javelin.table.exceptions..",
            "dev.javelin.index.exceptions..", "dev.javelin.core.exceptions..")
        .and().areAssignableTo(Throwable.class)
        .should().beAssignableTo(JavelinException.class)
        .check(new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.javelin.format.exceptions", "dev.javelin.table.exceptions",
                "dev.javelin.index.exceptions", "dev.javelin.core.exceptions"));
  }
}
