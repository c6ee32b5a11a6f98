package dev.javelin.cli;

import dev.javelin.core.Dataset;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code javelin describe}: what a dataset version is made of, from its manifest alone. */
@Command(
    name = "describe",
    header = "Show a version: schema, fragments, files, config.",
    description = {"Reads only the manifest; no data file is opened.", ""},
    footer = {"", "Example:", "  javelin describe people --as-of 2"})
final class DescribeCommand extends BaseCommand {
  @Mixin
  DatasetArgs dataset = new DatasetArgs();

  @Override
  public Integer call() {
    try (BufferAllocator allocator = new RootAllocator()) {
      Dataset ds = dataset.open(allocator);
      out().print(DescribeText.render(ds));
    }
    return ExitCodes.OK;
  }
}
