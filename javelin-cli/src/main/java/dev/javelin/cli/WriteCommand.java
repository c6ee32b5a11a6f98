package dev.javelin.cli;

import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.LanceFileWriter;
import dev.javelin.format.WriteOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.TypeConversionException;

/** {@code javelin file write}: Arrow IPC or CSV in, one Lance file out. */
@Command(
    name = "write",
    header = "Write a Lance file from Parquet, JSON Lines, Arrow IPC or CSV.",
    description = {
      "Reads IN in batches (inputs larger than memory are fine) and writes OUT.lance.",
      "IN is told apart by its first bytes: Parquet starts with PAR1, an Arrow IPC file",
      "with ARROW1, an Arrow IPC stream with 0xFFFFFFFF, JSON Lines with '{'; then by",
      "its name (.jsonl, .tsv); anything else is read as CSV (RFC 4180) with a header",
      "line, its delimiter found from the header (, ; tab |) unless --delimiter gives",
      "it. Text is UTF-8 unless --encoding says otherwise. --input-format forces one.",
      "",
      "CSV column types are inferred from the whole file unless --schema gives them:",
      "bool, int64, float64, date32 (2024-05-31), timestamp[us] (2024-05-31T12:00:00)",
      "or timestamp[us,UTC] (with an offset), else utf8; numbers with leading zeros",
      "(01234) stay utf8. An empty cell is null; a quoted empty cell (\"\") is an",
      "empty string. JSON Lines types are inferred from the first 10,000 lines:",
      "numbers, bools, strings (dates and timestamps as for CSV), objects as structs,",
      "arrays as lists. Parquet and Arrow inputs keep their own types, nested too.",
      ""
    },
    footer = {
      "",
      "--schema gives the type of every CSV column, instead of inferring them:",
      "  NAME:TYPE[?],NAME:TYPE[?],...     e.g. id:int64,name:utf8?,score:float64?",
      "A trailing '?' makes a column nullable (an empty cell is null); without it an",
      "empty cell is an error. Columns are written in the order of the spec, which",
      "must name every column of the CSV. TYPE is one of:",
      "  bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64,",
      "  float16, float32, float64, utf8, large_utf8,",
      "  binary                   cells in base64",
      "  decimal(P,S)             e.g. decimal(10,2): cells like 12.50",
      "  date32                   cells like 2024-05-31",
      "  timestamp[UNIT]          UNIT one of s, ms, us, ns; cells like",
      "  timestamp[UNIT,TZ]       2024-05-31T12:00:00.5 or 2024-05-31 12:00:00+02:00",
      "                           (without an offset, a cell is in UTC)",
      "Aliases: boolean, float, double, string, large_string, date, decimal128(P,S),",
      "and the names 'javelin describe' prints.",
      "",
      "Examples:",
      "  javelin file write people.lance --input people.csv",
      "  javelin file write people.lance --input people.csv \\",
      "      --schema 'id:int64,name:utf8,age:int32?'",
      "  javelin file write trips.lance --input trips.parquet",
      "  javelin file write sales.lance --input sales.csv --delimiter ';' \\",
      "      --encoding latin1",
      "  javelin file write events.lance --input events.arrow --version 2.0 \\",
      "      --max-page-bytes 8M"
    })
final class WriteCommand extends BaseCommand {
  @Parameters(index = "0", paramLabel = "OUT.lance", description = "The Lance file to write.")
  Path output;

  @Option(names = {"-i", "--input"}, required = true, paramLabel = "IN",
      description = "Parquet, JSON Lines, Arrow IPC (file or stream) or CSV with a header.")
  Path input;

  @Mixin
  InputOptions inputOptions = new InputOptions();

  @Option(names = "--version", paramLabel = "2.0|2.1|2.2", converter = VersionConverter.class, defaultValue = "2.1",
      description = "Lance file format version (default: ${DEFAULT-VALUE}).")
  LanceFileVersion version;

  @Option(names = "--schema", paramLabel = "SPEC", converter = SchemaSpec.Converter.class,
      description = "Types of the CSV or JSON Lines columns, as NAME:TYPE[?],... (see below).")
  SchemaSpec schema;

  @Option(names = "--max-page-bytes", paramLabel = "N", converter = ByteSize.class,
      description = "Flush a page once it holds about N bytes; 1048576, 512K, 8M (default: 32M).")
  Long maxPageBytes;

  @Option(names = {"-f", "--force"}, description = "Replace OUT.lance if it exists.")
  boolean force;

  @Override
  public Integer call() throws IOException {
    if (!Files.exists(input)) {
      throw new InvalidInputException("Input file not found: " + input);
    }
    if (Files.isDirectory(input)) {
      throw new InvalidInputException("Input is a directory, not a file: " + input);
    }
    if (maxPageBytes != null && maxPageBytes < 1024) {
      throw new InvalidInputException("--max-page-bytes must be at least 1K (1024 bytes), got " + maxPageBytes);
    }
    if (Files.exists(output)) {
      if (!force) {
        throw new InvalidInputException("Output file already exists (use --force to replace it): " + output);
      }
      Files.delete(output);
    }
    WriteOptions.Builder options = WriteOptions.builder().version(version);
    if (maxPageBytes != null) {
      options.maxPageBytes(maxPageBytes);
    }
    Inputs.Format kind = Inputs.detect(input, inputOptions.format);
    long rows;
    int columns;
    try {
      long[] done = write(kind, options.build());
      rows = done[0];
      columns = (int) done[1];
    } catch (IOException | RuntimeException | Error e) {
      // Whatever failed (the input, the disk, memory), OUT did not exist before: no partial file.
      try {
        Files.deleteIfExists(output);
      } catch (IOException | RuntimeException cleanup) {
        e.addSuppressed(cleanup);
      }
      throw e;
    }
    err().printf(Locale.ROOT, "Wrote %s and %s to %s (Lance %s, %s)%n", Formats.count(rows, "row"),
        Formats.count(columns, "column"), output, version, Formats.size(Files.size(output)));
    return ExitCodes.OK;
  }

  // Writes OUT from the input; returns the rows and the columns written.
  private long[] write(Inputs.Format kind, WriteOptions options) throws IOException {
    long rows;
    int columns;
    try (BufferAllocator allocator = new RootAllocator();
        ArrowReader reader = Inputs.open(input, kind, schema, null, inputOptions, allocator)) {
      VectorSchemaRoot batch = reader.getVectorSchemaRoot();
      Inputs.checkWritable(input, batch.getSchema());
      columns = batch.getSchema().getFields().size();
      // The first batch is read before the output is created, so that a bad input fails
      // without leaving a file behind.
      boolean more = reader.loadNextBatch();
      LanceFileWriter writer = LanceFileWriter.create(output, batch.getSchema(), options);
      try {
        while (more) {
          if (batch.getRowCount() > 0) {
            writer.write(batch);
          }
          more = reader.loadNextBatch();
        }
        writer.close();
      } catch (IOException | RuntimeException | Error e) {
        writer.abort(); // no partial file, whatever went wrong (out of memory included)
        throw e;
      }
      rows = writer.numRows();
    }
    return new long[] {rows, columns};
  }

  /** Parses --version. */
  static final class VersionConverter implements ITypeConverter<LanceFileVersion> {
    @Override
    public LanceFileVersion convert(String value) {
      try {
        return LanceFileVersion.parse(value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }
}
