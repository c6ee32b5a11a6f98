package dev.javelin.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.javelin.common.Json;
import dev.javelin.core.Dataset;
import dev.javelin.table.TagInfo;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code javelin tag}: names for versions, which cleanup keeps. */
@Command(
    name = "tag",
    header = "List, create, move and delete tags (names for versions).",
    synopsisSubcommandLabel = "COMMAND",
    subcommands = {TagCommand.ListTags.class, TagCommand.Create.class, TagCommand.Move.class, TagCommand.Delete.class},
    footer = {"", "Examples:", "  javelin tag create people before-import", "  javelin tag list people",
        "  javelin scan people --tag before-import"})
final class TagCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
  boolean help;

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getErr());
    return ExitCodes.INVALID_INPUT;
  }

  /** Runs {@link #run} on the newest version of the dataset. */
  abstract static class TagAction extends BaseCommand {
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

  @Command(name = "list", header = "List tags: name and version, by name.",
      description = {"One line per tag, its name and version separated by a tab; --json gives more.", ""},
      footer = {"", "Examples:", "  javelin tag list people", "  javelin tag list people --json"})
  static final class ListTags extends TagAction {
    @Option(names = "--json", description = "Print JSON instead (see docs/cli-json.md).")
    boolean json;

    @Override
    void run(Dataset ds) {
      if (json) {
        ArrayNode all = Json.array();
        for (TagInfo t : ds.tags().list().values()) {
          ObjectNode o = all.addObject();
          o.put("name", t.name());
          o.set("version", Json.unsigned(t.version()));
          o.put("branch", t.branch().orElse(null));
          o.put("created_at", t.createdAt().map(Object::toString).orElse(null));
          o.put("updated_at", t.updatedAt().map(Object::toString).orElse(null));
        }
        JsonOutput.print(out(), all);
        return;
      }
      for (TagInfo t : ds.tags().list().values()) {
        out().printf(Locale.ROOT, "%s\t%d%n", t.name(), t.version());
      }
    }
  }

  @Command(name = "create", header = "Tag a version (default: the newest).")
  static final class Create extends TagAction {
    @Parameters(index = "1", paramLabel = "NAME", description = "Letters, digits, '.', '-', '_' and '/'.")
    String name;

    @Option(names = "--version", paramLabel = "VERSION", description = "The version to tag (default: the newest).")
    Long version;

    @Override
    void run(Dataset ds) {
      long v = version == null ? ds.version() : version;
      ds.tags().create(name, v);
      err().printf(Locale.ROOT, "Tagged version %d of %s as %s%n", v, uri, name);
    }
  }

  @Command(name = "move", header = "Point an existing tag at another version.")
  static final class Move extends TagAction {
    @Parameters(index = "1", paramLabel = "NAME", description = "The tag.")
    String name;

    @Option(names = "--version", required = true, paramLabel = "VERSION", description = "The version it names now.")
    long version;

    @Override
    void run(Dataset ds) {
      ds.tags().update(name, version);
      err().printf(Locale.ROOT, "Tag %s of %s now names version %d%n", name, uri, version);
    }
  }

  @Command(name = "delete", header = "Delete a tag (the version stays until cleaned up).")
  static final class Delete extends TagAction {
    @Parameters(index = "1", paramLabel = "NAME", description = "The tag.")
    String name;

    @Override
    void run(Dataset ds) {
      ds.tags().delete(name);
      err().printf(Locale.ROOT, "Deleted tag %s of %s%n", name, uri);
    }
  }
}
