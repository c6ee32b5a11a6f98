package dev.javelin.cli;

import dev.javelin.core.Dataset;
import org.apache.arrow.memory.BufferAllocator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code javelin restore}: an old version made the newest again. */
@Command(
    name = "restore",
    header = "Make an old version the newest again.",
    description = {"Commits a new version with the old version's content. Only the old version's",
        "manifest is read, so this also recovers a dataset whose newest manifest is",
        "damaged.", ""},
    footer = {"", "Examples:", "  javelin restore people --version 3", "  javelin restore people --tag before-import"})
final class RestoreCommand extends DatasetChange {
  @Option(names = "--version", paramLabel = "VERSION", description = "The version to bring back.")
  Long version;

  @Option(names = "--tag", paramLabel = "NAME", description = "The tagged version to bring back.")
  String tag;

  // The old version is opened directly, never the newest: restoring is how a dataset whose
  // newest manifest is unreadable is recovered.
  @Override
  Dataset open(DatasetArgs args, BufferAllocator allocator) {
    if ((version == null) == (tag == null)) {
      throw new InvalidInputException("Name the version to restore with exactly one of --version and --tag");
    }
    args.version = version;
    args.tag = tag;
    return args.open(allocator);
  }

  @Override
  Dataset change(Dataset old, BufferAllocator allocator) {
    return old.restore();
  }

  @Override
  String summary(Dataset before, Dataset after) {
    return "Restored version " + before.version() + (tag == null ? "" : " (tag " + tag + ")");
  }
}
