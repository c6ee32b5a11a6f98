package dev.javelin.cli;

import dev.javelin.core.Dataset;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code javelin count}: the number of rows. */
@Command(
    name = "count",
    header = "Print the number of rows of a dataset version.",
    footer = {"", "Examples:", "  javelin count people --as-of 2", "  javelin count people --filter 'score IS NULL'"})
final class CountCommand extends BaseCommand {
  @Mixin
  DatasetArgs dataset = new DatasetArgs();

  @Option(names = {"-w", "--filter", "--where"}, paramLabel = "SQL",
      description = "Count only rows where this is true (reads only the columns it names).")
  String filter;

  @Override
  public Integer call() {
    try (BufferAllocator allocator = new RootAllocator()) {
      Dataset ds = dataset.open(allocator);
      out().println(filter == null ? ds.countRows() : ds.countRows(filter));
    }
    return ExitCodes.OK;
  }
}
