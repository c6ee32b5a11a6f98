package dev.javelin.cli;

import dev.javelin.core.Dataset;
import java.util.Locale;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import picocli.CommandLine.Parameters;

/**
 * A command that commits one change to the newest version of a dataset and reports the version
 * it made.
 */
abstract class DatasetChange extends BaseCommand {
  @Parameters(index = "0", paramLabel = "URI", description = "The dataset: a directory or file: URI.")
  String uri;

  @picocli.CommandLine.Option(names = "--branch", paramLabel = "NAME",
      description = "Change this branch (default: main). <URI>/tree/<NAME> works too.")
  String branch;

  /** Makes the change; returns the dataset at the version committed (or {@code ds} if none). */
  abstract Dataset change(Dataset ds, BufferAllocator allocator) throws Exception;

  /** What was done, for the summary line ("Deleted 12 rows"). */
  abstract String summary(Dataset before, Dataset after);

  /** The version the change starts from: the newest, unless a command says otherwise. */
  Dataset open(DatasetArgs args, BufferAllocator allocator) {
    return args.open(allocator);
  }

  @Override
  public Integer call() throws Exception {
    DatasetArgs args = dataset(uri);
    args.branch = branch;
    try (BufferAllocator allocator = new RootAllocator()) {
      Dataset before = open(args, allocator);
      Dataset after = change(before, allocator);
      String what = summary(before, after);
      if (after.version() == before.version()) {
        err().printf(Locale.ROOT, "%s; nothing committed, %s stays at version %d%n", what, uri, before.version());
      } else {
        err().printf(Locale.ROOT, "%s: %s is now at version %d (%s)%n", what, uri, after.version(),
            Formats.count(after.countRows(), "row"));
      }
    }
    return ExitCodes.OK;
  }

  static String rows(long n) {
    return Formats.count(n, "row");
  }
}
