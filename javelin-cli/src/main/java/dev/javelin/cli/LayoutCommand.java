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
      "From manifest metadata only: per fragment, the data files holding a schema column,",
      "their schema columns and recorded bytes, the share of dead field slots (tombstoned or",
      "dropped columns) and overlays. The bar has one '#' per data file.",
      ""
    },
    footer = {"", "Examples:", "  javelin layout people", "  javelin layout people --json"})
final class LayoutCommand extends BaseCommand {
  @Mixin
  DatasetArgs dataset;

  @Option(names = "--json", description = "Print JSON instead of a table.")
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
    String[] head = {"fragment", "rows", "files", "columns", "bytes", "dead", "overlays", "layout"};
    String[][] cells = new String[frags.size()][];
    int maxFiles = 0;
    for (int i = 0; i < frags.size(); i++) {
      ColumnLayoutStats.FragmentStats f = frags.get(i);
      int cols = 0;
      long bytes = 0;
      for (ColumnLayoutStats.FileStats d : f.files()) {
        cols += d.schemaFields();
        bytes += d.sizeBytes();
      }
      maxFiles = Math.max(maxFiles, f.dataFiles());
      cells[i] = new String[] {Long.toString(f.fragmentId()), Long.toString(rows.getOrDefault(f.fragmentId(), 0L)),
          Integer.toString(f.dataFiles()), Integer.toString(cols), Long.toString(bytes),
          String.format(Locale.ROOT, "%.0f%%", f.deadSlotShare() * 100), Integer.toString(f.overlays()),
          "#".repeat(f.dataFiles())};
    }
    int[] width = new int[head.length];
    for (int c = 0; c < head.length; c++) {
      width[c] = head[c].length();
      for (String[] r : cells) {
        width[c] = Math.max(width[c], r[c].length());
      }
    }
    out().println(row(head, width));
    for (String[] r : cells) {
      out().println(row(r, width));
    }
    int total = frags.stream().mapToInt(ColumnLayoutStats.FragmentStats::dataFiles).sum();
    out().printf(Locale.ROOT, "%d %s, %d data %s, %.2f per fragment, max %d%n", frags.size(),
        frags.size() == 1 ? "fragment" : "fragments", total, total == 1 ? "file" : "files",
        (double) total / frags.size(), maxFiles);
  }

  private static String row(String[] cells, int[] width) {
    StringBuilder b = new StringBuilder();
    for (int c = 0; c < cells.length; c++) {
      b.append(cells[c]);
      if (c < cells.length - 1) {
        b.append(" ".repeat(width[c] - cells[c].length() + 2));
      }
    }
    return b.toString();
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
