package dev.javelin.cli;

import dev.javelin.core.Dataset;
import dev.javelin.core.WriteParams;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.table.exceptions.VersionNotFoundException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code javelin overwrite}: a new version holding only the input's rows (and schema). */
@Command(
    name = "overwrite",
    header = "Replace a dataset's rows and schema with an input file.",
    description = {
      "The input is Parquet, JSON Lines, Arrow IPC or CSV, as for create. Older",
      "versions stay readable (--as-of) until cleaned up. Creates the dataset if",
      "there is none.",
      ""
    },
    footer = {"", "Example:", "  javelin overwrite people --input people-2025.csv"})
final class OverwriteCommand extends DatasetWriteCommand {
  @Option(names = "--version", paramLabel = "2.0|2.1|2.2", converter = WriteCommand.VersionConverter.class,
      description = "Lance file format version of the data files (default: the dataset's, or 2.1).")
  LanceFileVersion version;

  @Override
  LanceFileVersion fileVersion() {
    return version;
  }

  @Override
  Dataset write(ArrowReader data, WriteParams params, BufferAllocator allocator) {
    Dataset existing;
    try {
      existing = openLatest(uri, allocator);
    } catch (VersionNotFoundException e) {
      return createNew(data, params, allocator);
    }
    return existing.overwrite(data, params);
  }

  @Override
  String done() {
    return "Overwrote";
  }
}
