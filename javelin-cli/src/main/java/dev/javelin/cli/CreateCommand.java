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
    header = "Create a dataset from Parquet, JSON Lines, Arrow IPC or CSV.",
    description = {
      "Fails if a dataset exists at URI (use overwrite to replace it). The input's",
      "format is told by its first bytes and name (--input-format forces one). The",
      "columns of a CSV or JSON Lines input are inferred (see 'javelin file write",
      "--help') and printed; --dry-run prints them and stops.",
      ""
    },
    footer = {
      "",
      "Examples:",
      "  javelin create people --input people.csv --dry-run",
      "  javelin create people --input people.csv \\",
      "      --schema 'id:int64,name:utf8?,price:decimal(10,2)?'",
      "  javelin create trips --input trips.parquet",
      "  javelin create events --input events.jsonl --version 2.2 \\",
      "      --max-rows-per-file 100000"
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
    return createNew(data, params, allocator);
  }

  @Override
  String done() {
    return "Created";
  }
}
