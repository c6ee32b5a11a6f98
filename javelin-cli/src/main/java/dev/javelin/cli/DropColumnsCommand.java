package dev.javelin.cli;

import dev.javelin.core.Dataset;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code javelin drop-columns}: columns removed from the schema, no data rewritten. */
@Command(
    name = "drop-columns",
    header = "Drop columns (metadata only; the data goes at cleanup).",
    description = {"Nested fields are named as a.b. Data files left holding only dropped", "columns leave their fragments.", ""},
    footer = {"", "Example:", "  javelin drop-columns people email phone.home"})
final class DropColumnsCommand extends DatasetChange {
  @Parameters(index = "1..*", arity = "1..*", paramLabel = "COLUMN", description = "The columns to drop.")
  List<String> columns;

  @Override
  Dataset change(Dataset ds, BufferAllocator allocator) {
    return ds.dropColumns(columns);
  }

  @Override
  String summary(Dataset before, Dataset after) {
    return "Dropped " + String.join(", ", columns);
  }
}
