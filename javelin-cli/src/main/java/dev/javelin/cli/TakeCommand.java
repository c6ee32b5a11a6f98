package dev.javelin.cli;

import dev.javelin.core.Dataset;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code javelin take}: rows by position, reading only what holds them. */
@Command(
    name = "take",
    header = "Print rows by their position in a scan (0 is the first row).",
    description = {"Reads only the pages that hold the rows; order and repeats are kept.", ""},
    footer = {"", "Example:", "  javelin take people --rows 5,17,42 --columns id,name"})
final class TakeCommand extends BaseCommand {
  @Mixin
  DatasetArgs dataset = new DatasetArgs();

  @Option(names = {"-r", "--rows"}, required = true, split = ",", paramLabel = "ROW",
      description = "Positions of the rows, in this order (repeats allowed), e.g. 7,3,99.")
  List<Long> rows;

  @Option(names = {"-c", "--columns"}, split = ",", paramLabel = "COL",
      description = "Top-level columns to read, in this order (default: all).")
  List<String> columns;

  @Option(names = {"-f", "--format"}, paramLabel = "FORMAT", defaultValue = "table",
      converter = OutputFormat.Converter.class,
      description = "table, jsonl, csv, arrow or parquet (default: ${DEFAULT-VALUE}).")
  OutputFormat format;

  @Option(names = {"-o", "--output"}, paramLabel = "FILE",
      description = "Write to FILE instead of standard output (required for arrow and parquet); replaces FILE.")
  Path output;

  @Override
  public Integer call() throws IOException {
    try (BufferAllocator allocator = new RootAllocator()) {
      Dataset ds = dataset.open(allocator);
      long n = ds.countRows();
      long[] offsets = new long[rows.size()];
      for (int i = 0; i < offsets.length; i++) {
        long r = rows.get(i);
        if (r < 0 || r >= n) {
          throw new InvalidInputException("Row " + r + " is out of range: " + dataset.uri + " (version "
              + ds.version() + ") has " + Formats.count(n, "row"));
        }
        offsets[i] = r;
      }
      List<String> cols = columns == null ? null : Columns.check(ds, columns);
      try (RowOutput out = new RowOutput(this, format, output, allocator);
          VectorSchemaRoot root = ds.take(offsets, cols)) {
        out.report(out.writeOne(root));
      }
    }
    return ExitCodes.OK;
  }
}
