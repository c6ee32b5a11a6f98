package dev.javelin.cli;

import dev.javelin.core.ColumnAlteration;
import dev.javelin.core.Dataset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code javelin alter-columns}: rename columns or make them nullable. */
@Command(
    name = "alter-columns",
    header = "Rename columns or make them nullable (metadata only).",
    footer = {"", "Example:", "  javelin alter-columns people --rename name=full_name --nullable age"})
final class AlterColumnsCommand extends DatasetChange {
  @Option(names = "--rename", paramLabel = "OLD=NEW", split = ",",
      description = "Rename a column (nested fields as a.b; NEW is the new last name).")
  Map<String, String> renames = new LinkedHashMap<>();

  @Option(names = "--nullable", paramLabel = "COLUMN", split = ",", description = "Let a column hold nulls.")
  List<String> nullable = new ArrayList<>();

  @Override
  Dataset change(Dataset ds, BufferAllocator allocator) {
    if (renames.isEmpty() && nullable.isEmpty()) {
      throw new InvalidInputException("Nothing to alter: give --rename OLD=NEW or --nullable COLUMN");
    }
    Map<String, ColumnAlteration> byPath = new LinkedHashMap<>();
    renames.forEach((from, to) -> byPath.put(from, ColumnAlteration.of(from).rename(to)));
    for (String c : nullable) {
      byPath.put(c, byPath.getOrDefault(c, ColumnAlteration.of(c)).nullable(true));
    }
    return ds.alterColumns(new ArrayList<>(byPath.values()));
  }

  @Override
  String summary(Dataset before, Dataset after) {
    return "Altered " + (renames.size() + nullable.size()) + " column(s)";
  }
}
