package dev.javelin.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import org.apache.arrow.memory.BufferAllocator;

/** The formats of {@code scan --format} and {@code file read --format}. */
enum OutputFormat {
  /** An aligned table for people (the default). */
  TABLE,
  /** One JSON object per line. */
  JSONL,
  /** CSV with a header line. */
  CSV,
  /** An Arrow IPC file; binary, so it needs --output. */
  ARROW,
  /** A Parquet file; binary, so it needs --output. */
  PARQUET;

  boolean binary() {
    return this == ARROW || this == PARQUET;
  }

  /** What a binary format writes, for messages. */
  String fileKind() {
    return this == ARROW ? "an Arrow IPC file" : "a Parquet file";
  }

  /** A writer for a text format, to {@code out}. */
  RowWriter text(PrintWriter out) {
    switch (this) {
      case TABLE:
        return new TableWriter(out);
      case JSONL:
        return new JsonLinesWriter(out);
      case CSV:
        return new CsvWriter(out);
      default:
        throw new IllegalStateException(this + " is not a text format");
    }
  }

  /** A writer for a binary format, to a file. */
  RowWriter binary(Path path, BufferAllocator allocator) {
    return this == PARQUET ? new ParquetOutput(path) : new ArrowIpcWriter(path, allocator);
  }

  /** For picocli: lower-case names, and a message that lists them. */
  static final class Converter implements picocli.CommandLine.ITypeConverter<OutputFormat> {
    @Override
    public OutputFormat convert(String value) {
      for (OutputFormat f : values()) {
        if (f.toString().equalsIgnoreCase(value.trim())) {
          return f;
        }
      }
      throw new picocli.CommandLine.TypeConversionException(
          "'" + value + "' is not a format (expected table, jsonl, csv, arrow or parquet)");
    }
  }

  @Override
  public String toString() {
    return name().toLowerCase(Locale.ROOT);
  }
}
