package dev.javelin.cli;

import dev.javelin.core.Dataset;
import dev.javelin.core.WriteParams;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.io.LocalObjectStore;
import dev.javelin.io.ObjectStores;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * What {@code create}, {@code append} and {@code overwrite} share: an input (Parquet, JSON Lines,
 * Arrow IPC or CSV) read in batches and written as new fragments in one commit.
 */
abstract class DatasetWriteCommand extends BaseCommand {
  @Parameters(index = "0", paramLabel = "URI", description = "The dataset: a directory, file: URI, or s3:// or az:// URI.")
  String uri;

  @Option(names = {"-i", "--input"}, required = true, paramLabel = "IN",
      description = "Parquet, JSON Lines, Arrow IPC (file or stream) or CSV with a header.")
  Path input;

  @Mixin
  InputOptions inputOptions = new InputOptions();

  @Option(names = "--schema", paramLabel = "SPEC", converter = SchemaSpec.Converter.class,
      description = "Types of the CSV or JSON Lines columns, as NAME:TYPE[?],... (see 'javelin file write "
          + "--help'). Appending without it parses the input as the dataset's columns.")
  SchemaSpec schema;

  @Option(names = "--max-rows-per-file", paramLabel = "N",
      description = "Rows per data file, and so per fragment (default: 1048576).")
  Long maxRowsPerFile;

  @Option(names = "--max-page-bytes", paramLabel = "N", converter = ByteSize.class,
      description = "Flush a column's page once it holds about N bytes: 512K, 8M (default: 32M, "
          + "less when the heap is small).")
  Long maxPageBytes;

  @Option(names = "--dry-run",
      description = "Print the input's columns (inferred or read) and stop: commit nothing.")
  boolean dryRun;

  /** Runs the write; returns the dataset at the version it committed. */
  abstract Dataset write(ArrowReader data, WriteParams params, BufferAllocator allocator);

  /** The past tense for the summary line ("Created", "Appended to"). */
  abstract String done();

  /** The file version asked for, if the command takes one. */
  LanceFileVersion fileVersion() {
    return null;
  }

  /**
   * The dataset the rows must fit, if the command adds to one: a CSV or JSON Lines input without
   * --schema is parsed as its columns, and every input is checked against them.
   */
  Schema target(BufferAllocator allocator) {
    return null;
  }

  /** What to do when the input has no rows: null to go on, or the message that ends the command. */
  String whenEmpty() {
    return null;
  }

  /** A new dataset at {@code uri}; if that fails, no directory it made is left behind. */
  Dataset createNew(ArrowReader data, WriteParams params, BufferAllocator allocator) {
    Path local = ObjectStores.isLocal(uri) ? LocalObjectStore.pathOf(uri) : null;
    boolean existed = local != null && Files.exists(local);
    try {
      return Dataset.create(uri, data, params, allocator);
    } catch (RuntimeException e) {
      if (local != null && !existed) {
        removeEmptyDirectories(local, e);
      }
      throw e;
    }
  }

  // A create that fails on a bad row after the first batch leaves no files but the directories
  // it made; so that nothing is left, those go too (a directory holding any file stays).
  private static void removeEmptyDirectories(Path root, RuntimeException failure) {
    try (Stream<Path> all = Files.walk(root)) {
      List<Path> paths = all.sorted(Comparator.reverseOrder()).collect(Collectors.toList());
      for (Path p : paths) {
        if (Files.isDirectory(p)) {
          try (Stream<Path> children = Files.list(p)) {
            if (children.findAny().isEmpty()) {
              Files.delete(p);
            }
          }
        }
      }
    } catch (IOException e) {
      failure.addSuppressed(e);
    }
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
    if (maxPageBytes != null) {
      if (maxPageBytes < 1024) {
        throw new InvalidInputException("--max-page-bytes must be at least 1K (1024 bytes), got " + maxPageBytes);
      }
      params.maxPageBytes(maxPageBytes);
    }
    Inputs.Format format = Inputs.detect(input, inputOptions.format);
    try (BufferAllocator allocator = new RootAllocator()) {
      Schema target = schema == null ? target(allocator) : null;
      Dataset ds;
      try (ArrowReader opened = Inputs.open(input, format, schema, target, inputOptions, allocator);
          NonEmptyReader reader = new NonEmptyReader(opened, allocator)) {
        Schema in = reader.getVectorSchemaRoot().getSchema();
        Inputs.checkWritable(input, in);
        boolean inferred = !format.typed() && schema == null && target == null;
        Schema fit = target != null ? target : target(allocator);
        if (fit != null) {
          checkFits(in, fit);
        }
        if (dryRun) {
          out().print(describe(in, inferred));
          flushOut();
          err().printf(Locale.ROOT, "Dry run: nothing committed%n");
          return ExitCodes.OK;
        }
        if (!reader.hasRows() && whenEmpty() != null) {
          err().printf(Locale.ROOT, "%s%n", whenEmpty());
          return ExitCodes.OK;
        }
        ds = write(reader, params.progress(progress()).build(), allocator);
        if (inferred) {
          // The types a user did not choose, on standard output (the schema is what create made).
          out().print(describe(in, true));
          flushOut();
        }
      }
      int fragments = ds.manifest().fragments().size();
      err().printf(Locale.ROOT, "%s %s: version %d, %s in %s (Lance %s files)%n", done(), uri,
          ds.version(), Formats.count(ds.countRows(), "row"), Formats.count(fragments, "fragment"), ds.fileVersion());
    }
    return ExitCodes.OK;
  }

  private String describe(Schema in, boolean inferred) {
    StringBuilder s = new StringBuilder();
    s.append("Columns of ").append(input).append(inferred ? " (inferred; --schema sets them):" : ":").append('\n');
    int width = 0;
    for (Field f : in.getFields()) {
      width = Math.max(width, f.getName().length());
    }
    for (Field f : in.getFields()) {
      s.append(String.format(Locale.ROOT, "  %-" + width + "s  %s%s%n", f.getName(), SchemaSpec.name(f),
          f.isNullable() ? "" : " not null"));
    }
    return s.toString();
  }

  // The input's columns against the dataset's, by name, in the CLI's type names.
  private void checkFits(Schema in, Schema dataset) {
    Map<String, Field> want = new LinkedHashMap<>();
    for (Field f : dataset.getFields()) {
      want.put(f.getName(), f);
    }
    List<String> names = new ArrayList<>(want.keySet());
    for (Field f : in.getFields()) {
      Field w = want.remove(f.getName());
      if (w == null) {
        throw new InvalidInputException(input + " has column '" + f.getName() + "', which the dataset " + uri
            + " does not have (its columns: " + String.join(", ", names) + ")");
      }
      String got = SchemaSpec.name(f);
      String expected = SchemaSpec.name(w);
      if (!got.equals(expected)) {
        throw new InvalidInputException("Column '" + f.getName() + "' of " + input + " is " + got
            + ", but in the dataset " + uri + " it is " + expected);
      }
    }
    if (!want.isEmpty()) {
      throw new InvalidInputException(input + " has no column '" + want.keySet().iterator().next()
          + "', which the dataset " + uri + " has (its columns: " + String.join(", ", names) + ")");
    }
  }
}
