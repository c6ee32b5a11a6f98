package dev.javelin.cli;

import dev.javelin.core.Dataset;
import dev.javelin.io.LocalObjectStore;
import java.nio.file.Path;
import java.util.Locale;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code javelin clone --shallow}: a new dataset that refers to a version's files instead of copying them. */
@Command(name = "clone", header = "Shallow-clone a version of a dataset into a new dataset.",
    footer = {"", "The clone's first version has the source version's number, rows, schema and",
        "indices, and refers to the source's files (Lance's base paths) instead of",
        "copying them; writes to the clone put new files under TARGET only. Cleaning up",
        "the source may remove files the clone still uses: the source does not know its",
        "clones.", "",
        "Examples:", "  javelin clone --shallow people people-experiment",
        "  javelin clone --shallow people people-v3 --as-of 3"})
final class CloneCommand extends BaseCommand {
  @Mixin
  DatasetArgs source = new DatasetArgs();

  @Parameters(index = "1", paramLabel = "TARGET", description = "Where the clone goes: a directory that holds no dataset.")
  String target;

  @Option(names = "--shallow", required = true, description = "Refer to the source's files (the only kind Javelin makes).")
  boolean shallow;

  @Override
  public Integer call() {
    try (BufferAllocator allocator = new RootAllocator()) {
      Dataset ds = source.open(allocator);
      Path to = LocalObjectStore.pathOf(target);
      Dataset clone = ds.shallowClone(to, ds.version());
      err().printf(Locale.ROOT, "Cloned version %d of %s to %s (%s, no data copied)%n", ds.version(),
          source.uri, target, Formats.count(clone.countRows(), "row"));
    }
    return ExitCodes.OK;
  }
}
