package dev.javelin.cli;

import dev.javelin.core.Dataset;
import dev.javelin.core.UpdateResult;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code javelin update}: new values for the rows a filter selects. */
@Command(
    name = "update",
    header = "Set columns to expressions in the rows a filter selects.",
    description = {
      "By default the matching rows are rewritten into new fragments and their old",
      "copies deleted (Lance's update). --columns-mode rewrites the assigned columns",
      "of every touched fragment instead (one new data file per fragment), which is",
      "cheaper when most rows match.",
      ""
    },
    footer = {"", FilterHelp.TEXT, "", "Examples:",
        "  javelin update people --where \"id = 7\" --set \"name='Ada'\" --set 'score=score * 2'",
        "  javelin update people --set 'score=0' --columns-mode"})
final class UpdateCommand extends DatasetChange {
  @Option(names = {"-w", "--where", "--filter"}, paramLabel = "SQL",
      description = "The rows to update (default: all).")
  String where;

  @Option(names = "--set", required = true, paramLabel = "COL=EXPR",
      description = "A column and its new value, an expression over the row's columns (repeatable).")
  Map<String, String> set = new LinkedHashMap<>();

  @Option(names = "--columns-mode", description = "Rewrite the columns of touched fragments instead of the rows.")
  boolean columnsMode;

  private long updated;

  @Override
  Dataset change(Dataset ds, BufferAllocator allocator) {
    UpdateResult r = columnsMode ? ds.updateColumns(where, set) : ds.update(where, set);
    updated = r.rowsUpdated();
    return r.dataset();
  }

  @Override
  String summary(Dataset before, Dataset after) {
    return "Updated " + rows(updated);
  }
}
