package dev.javelin.cli;

import dev.javelin.core.Dataset;
import dev.javelin.core.compaction.ColumnLayoutStats;
import dev.javelin.table.Fragment;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code javelin layout}: how each fragment's columns are spread over data files. */
@Command(
    name = "layout",
    header = "Show how fragments spread their columns over data files.",
    description = {
      "From manifest metadata only: per fragment, the data files holding a schema",
      "column, their schema columns and recorded size, the share of dead field slots",
      "(tombstoned or dropped columns) and overlays. The bar has one '#' per data",
      "file. Sizes are in binary units (1 KiB = 1,024 bytes); --json gives bytes.",
      ""
    },
    footer = {"", "Examples:", "  javelin layout people", "  javelin layout people --json"})
final class LayoutCommand extends BaseCommand {
  @Mixin
  DatasetArgs dataset;

  @Option(names = "--json", description = "Print JSON instead (see docs/cli-json.md).")
  boolean json;

  @Override
  public Integer call() {
    try (BufferAllocator allocator = new RootAllocator()) {
      Dataset ds = dataset.open(allocator);
      ColumnLayoutStats stats = ds.columnLayoutStats();
      Map<Long, Long> rows = new HashMap<>();
      for (Fragment f : ds.manifest().fragments()) {
        rows.put(f.id(), f.physicalRows());
      }
      if (json) {
        out().println(json(stats, rows));
      } else {
        table(stats, rows);
      }
    }
    return ExitCodes.OK;
  }

  private void table(ColumnLayoutStats stats, Map<Long, Long> rows) {
    List<ColumnLayoutStats.FragmentStats> frags = stats.fragments();
    if (frags.isEmpty()) {
      out().println("(no fragments)");
      return;
    }
    TextTable table = new TextTable(">fragment", ">rows", ">files", ">columns", ">size", ">dead", ">overlays", "layout");
    int maxFiles = 0;
    for (ColumnLayoutStats.FragmentStats f : frags) {
      int cols = 0;
      long bytes = 0;
      for (ColumnLayoutStats.FileStats d : f.files()) {
        cols += d.schemaFields();
        bytes += d.sizeBytes();
      }
      maxFiles = Math.max(maxFiles, f.dataFiles());
      table.row(Long.toString(f.fragmentId()), Formats.number(rows.getOrDefault(f.fragmentId(), 0L)),
          Formats.number(f.dataFiles()), Formats.number(cols), Formats.size(bytes), Formats.percent(f.deadSlotShare()),
          Formats.number(f.overlays()), "#".repeat(f.dataFiles()));
    }
    table.print(out());
    int total = frags.stream().mapToInt(ColumnLayoutStats.FragmentStats::dataFiles).sum();
    out().printf(Locale.ROOT, "%s, %s, %.2f per fragment, max %d%n", Formats.count(frags.size(), "fragment"),
        Formats.count(total, "data file"), (double) total / frags.size(), maxFiles);
  }

  private static String json(ColumnLayoutStats stats, Map<Long, Long> rows) {
    return Cells.json(g -> {
      g.writeStartArray();
      for (ColumnLayoutStats.FragmentStats f : stats.fragments()) {
        g.writeStartObject();
        g.writeNumberField("fragment_id", f.fragmentId());
        g.writeNumberField("physical_rows", rows.getOrDefault(f.fragmentId(), 0L));
        g.writeNumberField("data_files", f.dataFiles());
        g.writeFieldName("dead_slot_share");
        g.writeNumber(String.format(Locale.ROOT, "%.4f", f.deadSlotShare()));
        g.writeNumberField("overlays", f.overlays());
        g.writeArrayFieldStart("files");
        for (ColumnLayoutStats.FileStats d : f.files()) {
          g.writeStartObject();
          g.writeStringField("path", d.path());
          g.writeNumberField("size_bytes", d.sizeBytes());
          g.writeNumberField("schema_fields", d.schemaFields());
          g.writeNumberField("slots", d.slots());
          g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
      }
      g.writeEndArray();
    });
  }
}
