package dev.javelin.cli;

import dev.javelin.core.Dataset;
import dev.javelin.core.WriteParams;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import picocli.CommandLine.Command;

/** {@code javelin append}: rows added to a dataset as new fragments. */
@Command(
    name = "append",
    header = "Append rows from Arrow IPC or CSV.",
    description = {
      "The input's columns must match the dataset's (by name, in any order). A CSV is",
      "parsed with the dataset's column types unless --schema is given.",
      ""
    },
    footer = {"", "Example:", "  javelin append people --input more-people.csv"})
final class AppendCommand extends DatasetWriteCommand {
  @Override
  SchemaSpec defaultCsvSchema(BufferAllocator allocator) {
    return SchemaSpec.of(openLatest(uri, allocator).schema().toArrow());
  }

  @Override
  Dataset write(ArrowReader data, WriteParams params, BufferAllocator allocator) {
    return openLatest(uri, allocator).append(data, params);
  }

  @Override
  String done() {
    return "Appended to";
  }
}
