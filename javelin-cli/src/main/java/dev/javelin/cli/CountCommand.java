package dev.javelin.cli;

import dev.javelin.core.Dataset;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code javelin count}: the number of rows. */
@Command(
    name = "count",
    header = "Print the number of rows of a dataset version.",
    footer = {"", "Example:", "  javelin count people --as-of 2"})
final class CountCommand extends BaseCommand {
  @Mixin
  DatasetArgs dataset = new DatasetArgs();

  @Override
  public Integer call() {
    try (BufferAllocator allocator = new RootAllocator()) {
      Dataset ds = dataset.open(allocator);
      out().println(ds.countRows());
    }
    return ExitCodes.OK;
  }
}
