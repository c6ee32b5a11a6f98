package dev.javelin.cli;

import dev.javelin.core.Dataset;
import dev.javelin.core.compaction.ColumnLayoutStats;
import dev.javelin.core.compaction.Compaction;
import dev.javelin.core.compaction.CompactionSummary;
import dev.javelin.core.compaction.CompactionMode;
import dev.javelin.core.compaction.CompactionOptions;
import dev.javelin.core.compaction.CompactionPlan;
import dev.javelin.core.compaction.CompactionTaskResult;
import dev.javelin.core.compaction.CompactionScope;
import dev.javelin.core.compaction.CompactionTask;
import dev.javelin.core.compaction.DefaultCompactionExecutor;
import dev.javelin.core.compaction.TaskKind;
import dev.javelin.format.schema.LanceField;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code javelin compact}: plan, run and commit compaction tasks, with progress. */
@Command(
    name = "compact",
    header = "Rewrite small fragments, repack ones split over many files.",
    description = {
      "Prints the plan, a line per finished task, and the layout before and after.",
      "Fragment rewrites commit as two versions (reserve ids, rewrite; indices",
      "covering the fragments are remapped); column repacks commit as one more.",
      "Repacks are planned only with --max-data-files-per-fragment or --column-groups",
      "(or the table config lance.compaction.max_data_files_per_fragment or",
      "lance.compaction.column_groups).",
      ""
    },
    footer = {"", "Examples:", "  javelin compact people", "  javelin compact people --scope repack --max-data-files-per-fragment 1",
        "  javelin compact people --column-groups \"id,name;embedding\" --dry-run"})
final class CompactCommand extends BaseCommand {
  @Parameters(index = "0", paramLabel = "URI", description = "The dataset: a directory or file: URI.")
  String uri;

  @Option(names = "--scope", paramLabel = "SCOPE", defaultValue = "all",
      description = "Which kinds of task to plan: all, rewrite or repack (default: all).")
  String scope;

  @Option(names = "--max-data-files-per-fragment", paramLabel = "N",
      description = "Repack a fragment whose columns are in more than N data files.")
  Integer maxFiles;

  @Option(names = "--column-groups", paramLabel = "GROUPS",
      description = "Columns to keep together, groups split by ';', columns by ',': \"a,b;c\".")
  String columnGroups;

  @Option(names = "--target-rows-per-fragment", paramLabel = "N", description = "Rows per rewritten fragment.")
  Long targetRows;

  @Option(names = "--mode", paramLabel = "MODE", defaultValue = "reencode",
      description = "How rewrites and repacks write data: reencode, or binary-copy (copy encoded pages "
          + "when the files allow it, else reencode).")
  String mode;

  @Option(names = "--dry-run", description = "Print the plan and stop.")
  boolean dryRun;

  @Override
  public Integer call() {
    CompactionOptions.Builder b = CompactionOptions.builder().scope(scope(scope)).mode(mode(mode));
    if (maxFiles != null) {
      if (maxFiles < 1) {
        throw new InvalidInputException("--max-data-files-per-fragment must be at least 1, got " + maxFiles);
      }
      b.maxDataFilesPerFragment(maxFiles);
    }
    if (columnGroups != null) {
      b.columnGroups(groups(columnGroups));
    }
    if (targetRows != null) {
      if (targetRows < 1) {
        throw new InvalidInputException("--target-rows-per-fragment must be at least 1, got " + targetRows);
      }
      b.targetRowsPerFragment(targetRows);
    }
    DatasetArgs args = dataset(uri);
    try (BufferAllocator allocator = new RootAllocator()) {
      Dataset ds = args.open(allocator);
      CompactionPlan plan = Compaction.plan(ds, b.build());
      printPlan(ds, plan);
      if (dryRun || plan.tasks().isEmpty()) {
        if (dryRun) {
          out().println("Dry run: nothing committed");
        }
        return ExitCodes.OK;
      }
      String before = layout(ds);
      DefaultCompactionExecutor executor = new DefaultCompactionExecutor();
      List<CompactionTaskResult> results = new ArrayList<>();
      int n = plan.tasks().size();
      for (CompactionTask t : plan.tasks()) {
        CompactionTaskResult r = executor.execute(ds, t);
        results.add(r);
        if (!quiet) {
          err().println(progress(results.size(), n, t, r));
          err().flush();
        }
      }
      CompactionSummary m = Compaction.commit(ds, results);
      Dataset after = m.dataset();
      out().println("Before: " + before + ", version " + ds.version());
      long committed = after.version() - ds.version();
      out().println("After:  " + layout(after) + ", version " + after.version() + " ("
          + Formats.count(committed, "version") + " committed)");
    }
    return ExitCodes.OK;
  }

  private void printPlan(Dataset ds, CompactionPlan plan) {
    int n = plan.tasks().size();
    out().println("Plan on version " + plan.readVersion() + ": " + Formats.count(n, "task"));
    Map<Integer, String> names = new HashMap<>();
    for (LanceField f : ds.manifest().schema().fields()) {
      names.put(f.id(), f.name());
    }
    for (CompactionTask t : plan.tasks()) {
      if (t.kind() == TaskKind.REPACK_COLUMNS) {
        List<String> files = new ArrayList<>();
        for (List<Integer> f : t.repackFiles()) {
          List<String> cols = new ArrayList<>();
          f.forEach(id -> cols.add(names.getOrDefault(id, "#" + id)));
          files.add("[" + String.join(", ", cols) + "]");
        }
        out().println("  repack   fragment " + t.fragmentIds().get(0) + " -> " + String.join(" ", files));
      } else {
        out().println("  rewrite  fragments " + t.fragmentIds());
      }
    }
  }

  private static String progress(int done, int n, CompactionTask t, CompactionTaskResult r) {
    if (t.kind() == TaskKind.REPACK_COLUMNS) {
      int files = r.repackedFiles().size();
      return "[" + done + "/" + n + "] repacked fragment " + t.fragmentIds().get(0) + " into "
          + Formats.count(files, "new file");
    }
    int frags = r.newFragments().size();
    return "[" + done + "/" + n + "] rewrote fragments " + t.fragmentIds() + " into "
        + Formats.count(frags, "fragment");
  }

  /** "3 fragments, 2.33 files per fragment (max 3)". */
  static String layout(Dataset ds) {
    ColumnLayoutStats s = ds.columnLayoutStats();
    int frags = s.fragments().size();
    int files = 0;
    int max = 0;
    for (ColumnLayoutStats.FragmentStats f : s.fragments()) {
      files += f.dataFiles();
      max = Math.max(max, f.dataFiles());
    }
    return String.format(Locale.ROOT, "%s, %.2f files per fragment (max %d)", Formats.count(frags, "fragment"),
        frags == 0 ? 0.0 : (double) files / frags, max);
  }

  static CompactionScope scope(String s) {
    switch (s) {
      case "all":
        return CompactionScope.ALL;
      case "rewrite":
        return CompactionScope.REWRITE_FRAGMENTS;
      case "repack":
        return CompactionScope.REPACK_COLUMNS;
      default:
        throw new InvalidInputException("--scope must be all, rewrite or repack, got '" + s + "'");
    }
  }

  static CompactionMode mode(String s) {
    switch (s) {
      case "reencode":
        return CompactionMode.REENCODE;
      case "binary-copy":
        return CompactionMode.TRY_BINARY_COPY;
      default:
        throw new InvalidInputException("--mode must be reencode or binary-copy, got '" + s + "'");
    }
  }

  /** "a,b;c" as [[a, b], [c]]. */
  static List<List<String>> groups(String s) {
    List<List<String>> out = new ArrayList<>();
    for (String g : s.split(";", -1)) {
      List<String> cols = new ArrayList<>();
      for (String c : g.split(",", -1)) {
        if (c.trim().isEmpty()) {
          throw new InvalidInputException("--column-groups has an empty column name: '" + s + "'");
        }
        cols.add(c.trim());
      }
      out.add(cols);
    }
    return out;
  }
}
