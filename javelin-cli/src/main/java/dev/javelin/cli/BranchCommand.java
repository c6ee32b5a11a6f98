package dev.javelin.cli;

import dev.javelin.core.Dataset;
import dev.javelin.table.BranchInfo;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code javelin branch}: Lance branches (independent lines of versions under {@code tree/<name>/}). */
@Command(
    name = "branch",
    header = "Create, list and delete branches (own lines of versions).",
    synopsisSubcommandLabel = "COMMAND",
    subcommands = {BranchCommand.ListBranches.class, BranchCommand.Create.class, BranchCommand.Delete.class},
    footer = {"", "A branch starts as a shallow clone of a version: it refers to that version's",
        "files and keeps its own under <URI>/tree/<name>/. Read or write it with",
        "--branch NAME, or at that path.",
        "", "Examples:", "  javelin branch create people experiment", "  javelin branch list people",
        "  javelin delete people --branch experiment --where \"age < 18\"", "  javelin scan people --branch experiment",
        "  javelin branch delete people experiment"})
final class BranchCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
  boolean help;

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getErr());
    return ExitCodes.INVALID_INPUT;
  }

  /** Runs {@link #run} on the newest version of the dataset's main branch. */
  abstract static class BranchAction extends BaseCommand {
    @Parameters(index = "0", paramLabel = "URI", description = "The dataset: a directory or file: URI.")
    String uri;

    abstract void run(Dataset ds);

    @Override
    public Integer call() {
      DatasetArgs args = dataset(uri);
      try (BufferAllocator allocator = new RootAllocator()) {
        run(args.open(allocator));
      }
      return ExitCodes.OK;
    }
  }

  @Command(name = "list", header = "List branches: name, parent, parent version, created.")
  static final class ListBranches extends BranchAction {
    @Override
    void run(Dataset ds) {
      for (BranchInfo b : ds.branches().list().values()) {
        out().printf(Locale.ROOT, "%s\t%s\t%d\t%s%n", b.name(), b.parentBranch().orElse("main"), b.parentVersion(),
            b.createdAt());
      }
    }
  }

  @Command(name = "create", header = "Create a branch from a version (default: newest of main).")
  static final class Create extends BranchAction {
    @Parameters(index = "1", paramLabel = "NAME",
        description = "Segments of letters, digits, '.', '-' and '_', joined by '/'; not 'main'.")
    String name;

    @Option(names = "--from", paramLabel = "BRANCH", description = "The branch to start from (default: main).")
    String from;

    @Option(names = "--as-of", paramLabel = "VERSION", description = "The version to start from (default: the newest).")
    Long version;

    @Option(names = "--tag", paramLabel = "TAG", description = "Start from the version this tag names.")
    String tag;

    @Override
    void run(Dataset ds) {
      if (tag != null && (version != null || from != null)) {
        throw new InvalidInputException("--tag names a branch and version itself; it cannot be used with --as-of or --from");
      }
      Dataset branch;
      if (tag != null) {
        branch = ds.createBranch(name, tag);
      } else {
        Dataset source = ds.checkoutBranch(from);
        branch = source.createBranch(name, version == null ? source.version() : version);
      }
      err().printf(Locale.ROOT, "Created branch %s of %s at version %d (%s)%n", name, uri, branch.version(),
          Formats.count(branch.countRows(), "row"));
    }
  }

  @Command(name = "delete", header = "Delete a branch and the files only it has.")
  static final class Delete extends BranchAction {
    @Parameters(index = "1", paramLabel = "NAME", description = "The branch.")
    String name;

    @Override
    void run(Dataset ds) {
      ds.branches().delete(name);
      err().printf(Locale.ROOT, "Deleted branch %s of %s%n", name, uri);
    }
  }
}
