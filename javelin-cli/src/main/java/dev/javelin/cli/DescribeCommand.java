package dev.javelin.cli;

import dev.javelin.core.Dataset;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code javelin describe}: what a dataset version is made of, from its manifest alone. */
@Command(
    name = "describe",
    header = "Show a version: schema, fragments, files, config.",
    description = {"Reads only the manifest; no data file is opened.", ""},
    footer = {"", "Examples:", "  javelin describe people --as-of 2", "  javelin describe people --json"})
final class DescribeCommand extends BaseCommand {
  @Mixin
  DatasetArgs dataset = new DatasetArgs();

  @Option(names = "--json", description = "Print JSON instead (see docs/cli-json.md).")
  boolean json;

  @Override
  public Integer call() {
    try (BufferAllocator allocator = new RootAllocator()) {
      Dataset ds = dataset.open(allocator);
      if (json) {
        JsonOutput.print(out(), DescribeText.json(ds, allocator));
      } else {
        out().print(DescribeText.render(ds, allocator));
      }
    }
    return ExitCodes.OK;
  }
}
