package dev.javelin.cli;

import dev.javelin.core.Dataset;
import dev.javelin.core.WriteParams;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;
import picocli.CommandLine.Command;

/** {@code javelin append}: rows added to a dataset as new fragments. */
@Command(
    name = "append",
    header = "Append rows from Parquet, JSON Lines, Arrow IPC or CSV.",
    description = {
      "The input's columns must match the dataset's (by name, in any order). A CSV or",
      "JSON Lines input is parsed with the dataset's column types unless --schema is",
      "given. An input without rows commits nothing.",
      ""
    },
    footer = {"", "Examples:", "  javelin append people --input more-people.csv",
        "  javelin append people --input more-people.parquet"})
final class AppendCommand extends DatasetWriteCommand {
  @Override
  Schema target(BufferAllocator allocator) {
    return openLatest(uri, allocator).schema().toArrow();
  }

  @Override
  String whenEmpty() {
    return input + " has no rows: nothing to append, nothing committed";
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
