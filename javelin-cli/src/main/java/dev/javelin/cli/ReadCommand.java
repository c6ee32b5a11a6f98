package dev.javelin.cli;

import dev.javelin.format.LanceFileReader;
import dev.javelin.format.ReadOptions;
import dev.javelin.format.exceptions.ColumnNotFoundException;
import dev.javelin.format.schema.LanceField;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.BooleanSupplier;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code javelin file read}: rows of a Lance file as a table, JSON lines, CSV or Arrow. */
@Command(
    name = "read",
    header = "Print rows (table, JSON lines, CSV) or write Arrow or Parquet.",
    description = {
      "Reads only the pages that hold the rows asked for. Data goes to standard output",
      "(or --output), the row count to standard error.",
      "  table    an aligned table; cells longer than " + TableWriter.MAX_WIDTH + " characters are cut,",
      "           null is null",
      "  jsonl    one JSON object per row: lists are arrays, structs objects, binary",
      "           base64, dates and times ISO-8601 (with the offset of the time zone,",
      "           if any), NaN and infinities strings",
      "  csv      a header line, then rows; null is an empty cell, nested values JSON",
      "  arrow    an Arrow IPC file (needs --output)",
      "  parquet  a Parquet file, ZSTD-compressed (needs --output)",
      ""
    },
    footer = {
      "",
      "Examples:",
      "  javelin file read data.lance --rows 0:10",
      "  javelin file read data.lance --columns id,name --take 5,17,42 --format jsonl",
      "  javelin file read data.lance --format arrow --output data.arrow"
    })
final class ReadCommand extends BaseCommand {
  @Parameters(index = "0", paramLabel = "IN.lance", description = "The Lance file to read.")
  Path input;

  @Option(names = {"-c", "--columns"}, split = ",", paramLabel = "COL",
      description = "Top-level columns to read, in this order (default: all).")
  List<String> columns;

  @Option(names = "--rows", paramLabel = "START:END", converter = RowRange.Converter.class,
      description = "Rows START (from 0) up to END, not included; either may be left out (10:, :10). "
          + "A range past the end stops at the end.")
  RowRange rows;

  @Option(names = "--take", split = ",", paramLabel = "ROW",
      description = "These rows, in this order (repeats allowed), e.g. 7,3,99.")
  List<Long> take;

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

  private boolean stopped;

  @Override
  public Integer call() throws IOException {
    if (rows != null && take != null) {
      throw new InvalidInputException("--rows and --take cannot be used together");
    }
    if (batchSize < 1) {
      throw new InvalidInputException("--batch-size must be at least 1, got " + batchSize);
    }
    if (format.binary() && output == null) {
      throw new InvalidInputException("--format " + format + " writes " + format.fileKind()
          + "; name it with --output");
    }
    if (Files.isDirectory(input)) {
      throw new InvalidInputException("Not a Lance file but a directory: " + input);
    }
    long count;
    try (BufferAllocator allocator = new RootAllocator();
        LanceFileReader reader = LanceFileReader.open(input, allocator)) {
      PrintWriter text = null;
      RowWriter writer;
      if (format.binary()) {
        writer = format.binary(output, allocator);
      } else {
        text = output == null ? out() : new PrintWriter(Files.newBufferedWriter(output, StandardCharsets.UTF_8));
        writer = format.text(text);
      }
      PrintWriter sink = text;
      try (RowWriter w = writer) {
        count = take != null ? take(reader, w) : scan(reader, w, () -> sink != null && sink.checkError());
      } finally {
        if (text != null && output != null) {
          text.close();
        }
      }
    }
    flushOut();
    if (stopped) {
      return ExitCodes.OK;
    }
    if (output != null) {
      err().printf(Locale.ROOT, "Wrote %s to %s%n", Formats.count(count, "row"), output);
    } else {
      err().printf(Locale.ROOT, "(%s)%n", Formats.count(count, "row"));
    }
    return ExitCodes.OK;
  }

  private long scan(LanceFileReader reader, RowWriter w, BooleanSupplier closed) throws IOException {
    ReadOptions.Builder options = ReadOptions.builder().columns(columns).batchSize(batchSize);
    if (rows != null) {
      long n = reader.numRows();
      long start = Math.min(rows.start, n);
      long end = rows.end < 0 ? n : Math.min(rows.end, n);
      options.rows(start, Math.max(start, end));
    }
    try (ArrowReader batches = open(reader, options.build())) {
      VectorSchemaRoot root = batches.getVectorSchemaRoot();
      w.start(root.getSchema());
      while (batches.loadNextBatch()) {
        w.write(root);
        if (closed.getAsBoolean()) {
          // Whoever reads our output has stopped (| head); so do we.
          stopped = true;
          break;
        }
      }
      return w.finish();
    }
  }

  private long take(LanceFileReader reader, RowWriter w) throws IOException {
    long[] indices = new long[take.size()];
    for (int i = 0; i < indices.length; i++) {
      long r = take.get(i);
      if (r < 0 || r >= reader.numRows()) {
        throw new InvalidInputException("Row " + r + " is out of range: " + input + " has "
            + Formats.count(reader.numRows(), "row"));
      }
      indices[i] = r;
    }
    try (VectorSchemaRoot root = withColumnNames(reader, () -> reader.take(indices, columns))) {
      w.start(root.getSchema());
      w.write(root);
      return w.finish();
    }
  }

  private ArrowReader open(LanceFileReader reader, ReadOptions options) throws IOException {
    return withColumnNames(reader, () -> reader.read(options));
  }

  private interface Read<T> {
    T run() throws IOException;
  }

  // An unknown column is a typo more often than not: list the ones there are.
  private static <T> T withColumnNames(LanceFileReader reader, Read<T> read) throws IOException {
    try {
      return read.run();
    } catch (ColumnNotFoundException e) {
      List<String> names = new ArrayList<>();
      for (LanceField f : reader.lanceSchema().fields()) {
        names.add(f.name());
      }
      throw new InvalidInputException(e.getMessage() + " (its columns: " + String.join(", ", names) + ")", e);
    }
  }
}
