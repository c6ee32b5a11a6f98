package dev.javelin.cli;

import dev.javelin.core.Dataset;
import dev.javelin.core.WriteParams;
import dev.javelin.format.LanceFileVersion;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code javelin create}: a new dataset from Arrow IPC or CSV. */
@Command(
    name = "create",
    header = "Create a dataset from Arrow IPC or CSV.",
    description = {"Fails if a dataset exists at URI (use overwrite to replace it).", ""},
    footer = {
      "",
      "Examples:",
      "  javelin create people --input people.csv",
      "  javelin create events --input events.arrow --version 2.0 --max-rows-per-file 100000"
    })
final class CreateCommand extends DatasetWriteCommand {
  @Option(names = "--version", paramLabel = "2.0|2.1|2.2", converter = WriteCommand.VersionConverter.class,
      defaultValue = "2.1", description = "Lance file format version of the data files (default: ${DEFAULT-VALUE}).")
  LanceFileVersion version;

  @Override
  LanceFileVersion fileVersion() {
    return version;
  }

  @Override
  Dataset write(ArrowReader data, WriteParams params, BufferAllocator allocator) {
    return Dataset.create(uri, data, params, allocator);
  }

  @Override
  String done() {
    return "Created";
  }
}
