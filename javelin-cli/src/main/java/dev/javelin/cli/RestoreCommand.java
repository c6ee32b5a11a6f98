package dev.javelin.cli;

import dev.javelin.core.Dataset;
import org.apache.arrow.memory.BufferAllocator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code javelin restore}: an old version made the newest again. */
@Command(
    name = "restore",
    header = "Make an old version the newest again.",
    footer = {"", "Examples:", "  javelin restore people --version 3", "  javelin restore people --tag before-import"})
final class RestoreCommand extends DatasetChange {
  @Option(names = "--version", paramLabel = "VERSION", description = "The version to bring back.")
  Long version;

  @Option(names = "--tag", paramLabel = "NAME", description = "The tagged version to bring back.")
  String tag;

  private long restored;

  @Override
  Dataset change(Dataset ds, BufferAllocator allocator) {
    if ((version == null) == (tag == null)) {
      throw new InvalidInputException("Name the version to restore with exactly one of --version and --tag");
    }
    Dataset old = version != null ? ds.checkout(version) : ds.checkout(tag);
    restored = old.version();
    return old.restore();
  }

  @Override
  String summary(Dataset before, Dataset after) {
    return "Restored version " + restored + (tag == null ? "" : " (tag " + tag + ")");
  }
}
