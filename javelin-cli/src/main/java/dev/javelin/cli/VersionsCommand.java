package dev.javelin.cli;

import dev.javelin.core.Dataset;
import dev.javelin.core.VersionInfo;
import java.util.List;
import java.util.Locale;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code javelin versions}: every version with when, what and how many rows. */
@Command(
    name = "versions",
    header = "List a dataset's versions: number, time, operation, rows.",
    footer = {"", "Example:", "  javelin versions people"})
final class VersionsCommand extends BaseCommand {
  @Parameters(index = "0", paramLabel = "URI", description = "The dataset: a directory or file: URI.")
  String uri;

  @Override
  public Integer call() {
    DatasetArgs args = new DatasetArgs();
    args.uri = uri;
    try (BufferAllocator allocator = new RootAllocator()) {
      Dataset ds = args.open(allocator);
      List<VersionInfo> versions = ds.versions();
      int w = Math.max("version".length(), String.valueOf(ds.version()).length());
      out().printf(Locale.ROOT, "%" + w + "s  %-24s  %-16s  %s%n", "version", "timestamp", "operation", "rows");
      for (VersionInfo v : versions) {
        out().printf(Locale.ROOT, "%" + w + "d  %-24s  %-16s  %,d%n", v.version(),
            v.timestamp().map(Object::toString).orElse("-"), v.operation(), v.rowCount());
      }
    }
    return ExitCodes.OK;
  }
}
