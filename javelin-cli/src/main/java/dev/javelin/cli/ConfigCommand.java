package dev.javelin.cli;

import dev.javelin.core.Dataset;
import dev.javelin.core.UpdateConfigBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code javelin config}: the dataset's config map (Lance's table config), listed or changed. */
@Command(
    name = "config",
    header = "List or change a dataset's config (Lance's table config).",
    description = {"Without --set or --unset, prints each key and its value, tab-separated, in",
        "key order. With them, commits one change of the newest version; keys not",
        "named stay. The lance.compaction.* values compaction reads are checked.", ""},
    footer = {"", "Examples:", "  javelin config people",
        "  javelin config people --set owner=ml --unset stale",
        "  javelin config people --set lance.compaction.max_data_files_per_fragment=2"})
final class ConfigCommand extends BaseCommand {
  @Mixin
  DatasetArgs dataset = new DatasetArgs();

  @Option(names = "--set", paramLabel = "KEY=VALUE", description = "Set a key (repeatable).")
  List<String> set = new ArrayList<>();

  @Option(names = "--unset", paramLabel = "KEY", description = "Remove a key (repeatable).")
  List<String> unset = new ArrayList<>();

  @Override
  public Integer call() {
    if (!set.isEmpty() || !unset.isEmpty()) {
      if (dataset.version != null || dataset.tag != null) {
        throw new InvalidInputException("--set and --unset change the newest version: drop --as-of and --tag");
      }
    }
    try (BufferAllocator allocator = new RootAllocator()) {
      Dataset ds = dataset.open(allocator);
      if (set.isEmpty() && unset.isEmpty()) {
        new TreeMap<>(ds.config()).forEach((k, v) -> out().println(k + "\t" + v));
        return ExitCodes.OK;
      }
      UpdateConfigBuilder change = ds.updateConfig();
      for (String kv : set) {
        int eq = kv.indexOf('=');
        if (eq <= 0) {
          throw new InvalidInputException("--set takes KEY=VALUE, not '" + kv + "'");
        }
        change.set(kv.substring(0, eq), kv.substring(eq + 1));
      }
      unset.forEach(change::remove);
      Dataset after = change.commit();
      err().printf(Locale.ROOT, "%s: %s is now at version %d%n", summary(), dataset.uri, after.version());
    }
    return ExitCodes.OK;
  }

  private String summary() {
    long keys = set.stream().map(kv -> kv.substring(0, kv.indexOf('='))).distinct().count();
    String removed = Formats.count(unset.stream().distinct().count(), "key");
    return set.isEmpty() ? "Removed " + removed
        : unset.isEmpty() ? "Set " + Formats.count(keys, "key")
        : "Set " + Formats.count(keys, "key") + ", removed " + removed;
  }
}
