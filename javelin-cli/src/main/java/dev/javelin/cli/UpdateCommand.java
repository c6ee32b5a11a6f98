package dev.javelin.cli;

import dev.javelin.core.Dataset;
import dev.javelin.core.UpdateResult;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
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
      "cheaper when most rows match. A string set to a date or timestamp column is",
      "read as one, as in filters: --set \"born='1815-12-10'\".",
      ""
    },
    footer = {"", FilterHelp.TEXT, "", "Examples:",
        "  javelin update people --where \"id = 7\" --set \"name='Ada'\" \\",
        "      --set 'score=score * 2'",
        "  javelin update people --where 'id = 7' --set \"born='1815-12-10'\"",
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

  // A whole expression that is one string literal, 'text' with '' for a quote.
  private static final Pattern STRING_LITERAL = Pattern.compile("\\s*'(?:[^']|'')*'\\s*");

  @Override
  Dataset change(Dataset ds, BufferAllocator allocator) {
    Map<String, String> assignments = typedLiterals(ds.schema().toArrow(), set);
    UpdateResult r = columnsMode ? ds.updateColumns(where, assignments) : ds.update(where, assignments);
    updated = r.rowsUpdated();
    return r.dataset();
  }

  /**
   * The assignments with a string literal set to a date or timestamp column read as a literal of
   * that type ({@code d='2024-02-03'} as {@code d=date '2024-02-03'}), as filters compare them.
   */
  static Map<String, String> typedLiterals(Schema schema, Map<String, String> assignments) {
    Map<String, String> out = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : assignments.entrySet()) {
      String expr = e.getValue();
      Field f = null;
      for (Field c : schema.getFields()) {
        if (c.getName().equals(e.getKey().trim())) {
          f = c;
        }
      }
      if (f != null && STRING_LITERAL.matcher(expr).matches()) {
        if (f.getType().getTypeID() == ArrowType.ArrowTypeID.Date) {
          expr = "date " + expr.trim();
        } else if (f.getType().getTypeID() == ArrowType.ArrowTypeID.Timestamp) {
          expr = "timestamp " + expr.trim();
        }
      }
      out.put(e.getKey(), expr);
    }
    return out;
  }

  @Override
  String summary(Dataset before, Dataset after) {
    return "Updated " + rows(updated);
  }
}
