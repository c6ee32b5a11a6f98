package dev.javelin.cli;

import dev.javelin.core.Dataset;
import dev.javelin.core.IndexInfo;
import dev.javelin.table.DataFile;
import dev.javelin.table.FeatureFlags;
import dev.javelin.table.Fragment;
import dev.javelin.table.IndexMetadata;
import dev.javelin.table.Manifest;
import dev.javelin.table.stablepartition.StablePartitionEntry;
import dev.javelin.table.stablepartition.StablePartitionTransition;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code describe} for people:
 *
 * <pre>
 * dataset   people
 * version   3 (2026-12-01T10:00:00Z, written by javelin 0.1.0)
 * files     Lance 2.1
 * rows      1,500 live in 3 fragments
 * features  reader: deletion files
 *
 * schema (field id, name, type):
 *   0  id    int64 not null
 *
 * fragments (id, rows, data files):
 *   0  1,000 rows, 12 deleted
 *        data/0a1b.lance  fields [0, 1]  Lance 2.1  12,345 bytes
 *        _deletions/0-2-77.arrow  12 rows
 * </pre>
 */
final class DescribeText {
  private DescribeText() {}

  static String render(Dataset ds) {
    Manifest m = ds.manifest();
    StringBuilder b = new StringBuilder();
    b.append("dataset   ").append(ds.location()).append('\n');
    b.append("version   ").append(m.version());
    m.timestamp().ifPresent(t -> b.append(" (").append(t));
    b.append(m.timestamp().isPresent() ? ", " : " (").append("written by ").append(m.writerLibrary()).append(")\n");
    b.append("files     Lance ").append(m.fileVersion()).append('\n');
    b.append("rows      ").append(String.format(Locale.ROOT, "%,d live in %,d %s", m.countRows(),
        m.fragments().size(), m.fragments().size() == 1 ? "fragment" : "fragments")).append('\n');
    if (m.readerFeatureFlags() != 0 || m.writerFeatureFlags() != 0) {
      b.append("features  reader: ").append(flags(m.readerFeatureFlags()))
          .append("; writer: ").append(flags(m.writerFeatureFlags())).append('\n');
    }
    for (Map.Entry<String, String> e : new TreeMap<>(m.config()).entrySet()) {
      b.append("config    ").append(e.getKey()).append(" = ").append(e.getValue()).append('\n');
    }
    b.append('\n');
    InfoText.schema(b, m.schema().fields());

    m.branch().ifPresent(name -> b.append("branch    ").append(name).append('\n'));
    if (!m.basePaths().byId().isEmpty()) {
      b.append("\nbase paths (id, location; files marked [base N] are read from there):\n");
      m.basePaths().byId().forEach((id, p) -> b.append("  ").append(id).append("  ").append(p.path())
          .append(p.name().map(n -> "  (" + n + ")").orElse("")).append('\n'));
    }

    b.append("\nfragments (id, rows, data files):\n");
    if (m.fragments().isEmpty()) {
      b.append("  (none)\n");
    }
    int idWidth = 1;
    for (Fragment f : m.fragments()) {
      idWidth = Math.max(idWidth, String.valueOf(f.id()).length());
    }
    String indent = "  " + " ".repeat(idWidth) + "    ";
    for (Fragment f : m.fragments()) {
      b.append("  ").append(InfoText.pad(String.valueOf(f.id()), idWidth, true)).append("  ")
          .append(String.format(Locale.ROOT, "%,d %s", f.physicalRows(), f.physicalRows() == 1 ? "row" : "rows"));
      f.deletionFile().ifPresent(d -> b.append(String.format(Locale.ROOT, ", %,d deleted", d.numDeletedRows())));
      b.append('\n');
      for (DataFile d : f.files()) {
        b.append(indent).append(d.hasBaseId() ? "[base " + d.baseId().getAsInt() + "] " : "").append("data/")
            .append(d.path()).append("  fields ").append(d.fields())
            .append("  Lance ").append(d.fileMajorVersion()).append('.').append(d.fileMinorVersion());
        if (d.fileSizeBytes() > 0) {
          b.append(String.format(Locale.ROOT, "  %,d bytes", d.fileSizeBytes()));
        }
        b.append('\n');
      }
      f.deletionFile().ifPresent(d -> b.append(indent).append(d.hasBaseId() ? "[base " + d.baseId().getAsInt() + "] " : "")
          .append(d.key(f.id()))
          .append(String.format(Locale.ROOT, "  %,d %s%n", d.numDeletedRows(), d.numDeletedRows() == 1 ? "row" : "rows")));
    }

    b.append("\nindices (name, fields, fragments):\n");
    if (m.indices().isEmpty()) {
      b.append("  (none)\n");
    }
    Map<String, IndexInfo> infos = new HashMap<>();
    for (IndexInfo i : ds.indices()) {
      infos.put(i.name(), i);
    }
    for (IndexMetadata idx : m.indices()) {
      b.append("  ").append(idx.name()).append("  fields ").append(idx.fields());
      if (idx.name().equals(StablePartitionEntry.NAME)) {
        transitions(b, ds);
        continue;
      }
      IndexInfo info = infos.get(idx.name());
      List<Long> direct = new ArrayList<>();
      List<Long> unindexed = new ArrayList<>();
      for (Fragment f : m.fragments()) {
        if (info.fragments().contains(f.id())) {
          direct.add(f.id());
        } else if (!info.throughRowMaps().contains(f.id())) {
          unindexed.add(f.id());
        }
      }
      b.append("  direct ").append(direct);
      if (!info.throughRowMaps().isEmpty()) {
        b.append("  through row maps ").append(info.throughRowMaps());
      }
      if (!unindexed.isEmpty()) {
        b.append("  unindexed ").append(unindexed);
      }
      b.append('\n');
    }
    return b.toString();
  }

  // The reordered rewrites recorded in the stable partition entry, oldest first.
  private static void transitions(StringBuilder b, Dataset ds) {
    List<StablePartitionTransition> ts;
    try {
      ts = StablePartitionEntry.transitions(ds.manifest(), ds.store());
    } catch (IOException e) {
      throw new UncheckedIOException("Reading the " + StablePartitionEntry.NAME + " entry failed: " + ds.location(), e);
    }
    b.append("  ").append(ts.size()).append(ts.size() == 1 ? " transition" : " transitions").append(":\n");
    for (StablePartitionTransition t : ts) {
      List<Long> sources = new ArrayList<>();
      t.sources().forEach(s -> sources.add(s.id()));
      b.append("    read v").append(t.datasetVersion()).append("  ").append(sources).append(" -> ")
          .append(t.destinations()).append("  row map ").append(t.rowMapPath()).append('\n');
    }
  }

  private static String flags(long flags) {
    return flags == 0 ? "none" : FeatureFlags.describe(flags);
  }
}
