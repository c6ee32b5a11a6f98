package dev.javelin.cli;

import dev.javelin.core.Dataset;
import dev.javelin.core.DeleteResult;
import org.apache.arrow.memory.BufferAllocator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code javelin delete}: rows removed by a filter, as deletion files. */
@Command(
    name = "delete",
    header = "Delete the rows a filter selects (older versions keep them).",
    description = {
      "Writes a deletion file per touched fragment; data files are not rewritten. A",
      "fragment left with no rows is dropped.",
      ""
    },
    footer = {"", FilterHelp.TEXT, "", "Example:", "  javelin delete people --where \"age < 18 OR name IS NULL\""})
final class DeleteCommand extends DatasetChange {
  @Option(names = {"-w", "--where", "--filter"}, required = true, paramLabel = "SQL",
      description = "The rows to delete: those for which this is true.")
  String where;

  private long deleted;

  @Override
  Dataset change(Dataset ds, BufferAllocator allocator) {
    DeleteResult r = ds.deleteWhere(where);
    deleted = r.rowsDeleted();
    return r.dataset();
  }

  // The rows this commit deleted: the change in row count would count concurrent appends too.
  @Override
  String summary(Dataset before, Dataset after) {
    return "Deleted " + Formats.count(deleted, "row");
  }
}
