package dev.javelin.cli;

import dev.javelin.core.Dataset;
import dev.javelin.core.ScanBuilder;
import dev.javelin.format.ReadOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code javelin scan}: the rows of a dataset version. */
@Command(
    name = "scan",
    header = "Print rows (table, JSON lines, CSV) or write Arrow or Parquet.",
    description = {
      "Rows come in fragment order. Data goes to standard output (or --output), the",
      "row count to standard error. --columns takes top-level columns, nested fields",
      "(address.city) and the system columns _rowid and _rowaddr (and, where the",
      "dataset keeps them, _row_created_at_version and _row_last_updated_at_version).",
      ""
    },
    footer = {
      "",
      FilterHelp.TEXT,
      "",
      "Examples:",
      "  javelin scan people --columns id,name,address.city --format jsonl",
      "  javelin scan people --limit 10 \\",
      "      --filter \"age BETWEEN 20 AND 29 AND city IN ('Oslo', 'Turin')\"",
      "  javelin scan people --filter 'id = 42' --explain",
      "  javelin scan people --as-of 3 --format parquet --output people-v3.parquet"
    })
final class ScanCommand extends BaseCommand {
  @Mixin
  DatasetArgs dataset = new DatasetArgs();

  @Option(names = {"-c", "--columns"}, split = ",", paramLabel = "COL",
      description = "Columns to read, in this order: top-level, nested (a.b) or system (_rowid) "
          + "(default: all).")
  List<String> columns;

  @Option(names = {"-w", "--filter", "--where"}, paramLabel = "SQL",
      description = "Only rows where this is true, e.g. \"age >= 18 AND name LIKE 'A%%'\" (see below).")
  String filter;

  @Option(names = "--offset", paramLabel = "N", description = "Skip the first N rows (after the filter).")
  Long offset;

  @Option(names = {"-n", "--limit"}, paramLabel = "N", description = "At most N rows (after the filter and offset).")
  Long limit;

  @Option(names = "--batch-size", paramLabel = "N", defaultValue = "" + ReadOptions.DEFAULT_BATCH_SIZE,
      description = "Rows decoded at a time (default: ${DEFAULT-VALUE}).")
  int batchSize;

  @Option(names = {"-f", "--format"}, paramLabel = "FORMAT", defaultValue = "table",
      converter = OutputFormat.Converter.class,
      description = "table, jsonl, csv, arrow or parquet (default: ${DEFAULT-VALUE}).")
  OutputFormat format;

  @Option(names = {"-o", "--output"}, paramLabel = "FILE",
      description = "Write to FILE instead of standard output (required for arrow and parquet); "
          + "replaces FILE.")
  Path output;

  @Option(names = "--explain",
      description = "Print to standard error how the scan reads its rows (which index answers the filter, where).")
  boolean explain;

  @Override
  public Integer call() throws IOException {
    if (batchSize < 1) {
      throw new InvalidInputException("--batch-size must be at least 1, got " + batchSize);
    }
    try (BufferAllocator allocator = new RootAllocator()) {
      Dataset ds = dataset.open(allocator);
      ScanBuilder scan = ds.newScan().batchSize(batchSize);
      List<List<String>> paths = columns == null ? null : ScanColumns.resolve(ds, columns);
      boolean nested = paths != null && ScanColumns.nested(paths);
      if (columns != null) {
        scan.columns(nested ? NestedColumns.topLevel(columns) : columns);
      }
      if (filter != null) {
        scan.filter(filter);
      }
      if (offset != null) {
        if (offset < 0) {
          throw new InvalidInputException("--offset must not be negative, got " + offset);
        }
        scan.offset(offset);
      }
      if (limit != null) {
        if (limit < 0) {
          throw new InvalidInputException("--limit must not be negative, got " + limit);
        }
        scan.limit(limit);
      }
      if (explain) {
        err().print(scan.explain().describe());
        err().flush();
      }
      long count;
      try (RowOutput out = new RowOutput(this, format, output, allocator);
          ArrowReader rows = nested ? NestedColumns.of(scan.build(), columns, paths, allocator) : scan.build()) {
        count = out.writeAll(rows);
        out.report(count);
      }
    }
    return ExitCodes.OK;
  }
}
