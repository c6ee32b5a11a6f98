package dev.javelin.cli;

import dev.javelin.core.Dataset;
import dev.javelin.core.WriteParams;
import dev.javelin.format.LanceFileVersion;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Field;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * What {@code create}, {@code append} and {@code overwrite} share: an input (Arrow IPC or CSV)
 * read in batches and written as new fragments in one commit.
 */
abstract class DatasetWriteCommand extends BaseCommand {
  @Parameters(index = "0", paramLabel = "URI", description = "The dataset: a directory, file: URI, or s3:// or az:// URI.")
  String uri;

  @Option(names = {"-i", "--input"}, required = true, paramLabel = "IN",
      description = "Arrow IPC file or stream, or CSV file with a header.")
  Path input;

  @Option(names = "--schema", paramLabel = "SPEC", converter = SchemaSpec.Converter.class,
      description = "Types of the CSV columns, as NAME:TYPE[?],... (see 'javelin file write --help'). "
          + "Appending a CSV without it parses the cells as the dataset's columns.")
  SchemaSpec schema;

  @Option(names = "--max-rows-per-file", paramLabel = "N",
      description = "Rows per data file, and so per fragment (default: 1048576).")
  Long maxRowsPerFile;

  /** Runs the write; returns the dataset at the version it committed. */
  abstract Dataset write(ArrowReader data, WriteParams params, BufferAllocator allocator);

  /** The past tense for the summary line ("Created", "Appended to"). */
  abstract String done();

  /** The file version asked for, if the command takes one. */
  LanceFileVersion fileVersion() {
    return null;
  }

  /** The schema to parse a CSV with when none is given: null to infer it. */
  SchemaSpec defaultCsvSchema(BufferAllocator allocator) {
    return null;
  }

  @Override
  public Integer call() throws IOException {
    if (!Files.exists(input)) {
      throw new InvalidInputException("Input file not found: " + input);
    }
    if (Files.isDirectory(input)) {
      throw new InvalidInputException("Input is a directory, not a file: " + input);
    }
    WriteParams.Builder params = WriteParams.builder().fileVersion(fileVersion()).storageOptions(storageOptions);
    if (maxRowsPerFile != null) {
      if (maxRowsPerFile < 1) {
        throw new InvalidInputException("--max-rows-per-file must be at least 1, got " + maxRowsPerFile);
      }
      params.maxRowsPerFile(maxRowsPerFile);
    }
    Inputs.Kind kind = Inputs.detect(input);
    try (BufferAllocator allocator = new RootAllocator()) {
      SchemaSpec spec = schema;
      if (spec == null && kind == Inputs.Kind.CSV) {
        spec = defaultCsvSchema(allocator);
      }
      Dataset ds;
      try (ArrowReader reader = Inputs.open(input, kind, spec, allocator)) {
        for (Field f : reader.getVectorSchemaRoot().getSchema().getFields()) {
          if (f.getDictionary() != null) {
            throw new InvalidInputException("Column '" + f.getName() + "' of " + input
                + " is dictionary-encoded, which Javelin does not write; decode it first");
          }
        }
        ds = write(reader, params.build(), allocator);
      }
      int fragments = ds.manifest().fragments().size();
      err().printf(Locale.ROOT, "%s %s: version %d, %,d rows in %,d %s (Lance %s files)%n", done(), uri,
          ds.version(), ds.countRows(), fragments, fragments == 1 ? "fragment" : "fragments", ds.fileVersion());
    }
    return ExitCodes.OK;
  }
}
