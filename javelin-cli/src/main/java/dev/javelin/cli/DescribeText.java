package dev.javelin.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.javelin.common.Json;
import dev.javelin.core.Dataset;
import dev.javelin.format.schema.LanceField;
import dev.javelin.table.DataFile;
import dev.javelin.table.DeletionFile;
import dev.javelin.table.FeatureFlags;
import dev.javelin.table.Fragment;
import dev.javelin.table.Manifest;
import dev.javelin.table.stablepartition.StablePartitionTransition;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.arrow.memory.BufferAllocator;

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
 *        data/0a1b.lance  fields [0, 1]  Lance 2.1  12.1 KiB
 *        _deletions/0-2-77.arrow  12 rows
 * </pre>
 */
final class DescribeText {
  private DescribeText() {}

  static String render(Dataset ds, BufferAllocator allocator) {
    Manifest m = ds.manifest();
    StringBuilder b = new StringBuilder();
    b.append("dataset   ").append(ds.location()).append('\n');
    b.append("version   ").append(m.version());
    m.timestamp().ifPresent(t -> b.append(" (").append(t));
    b.append(m.timestamp().isPresent() ? ", " : " (").append("written by ").append(m.writerLibrary()).append(")\n");
    b.append("files     Lance ").append(m.fileVersion()).append('\n');
    b.append("rows      ").append(Formats.number(m.countRows())).append(" live in ")
        .append(Formats.count(m.fragments().size(), "fragment")).append('\n');
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
          .append(Formats.count(f.physicalRows(), "row"));
      f.deletionFile().ifPresent(d -> b.append(", ").append(Formats.number(d.numDeletedRows())).append(" deleted"));
      b.append('\n');
      for (DataFile d : f.files()) {
        b.append(indent).append(d.hasBaseId() ? "[base " + d.baseId().getAsInt() + "] " : "").append("data/")
            .append(d.path()).append("  fields ").append(d.fields())
            .append("  Lance ").append(d.fileMajorVersion()).append('.').append(d.fileMinorVersion());
        if (d.fileSizeBytes() > 0) {
          b.append("  ").append(Formats.size(d.fileSizeBytes()));
        }
        b.append('\n');
      }
      f.deletionFile().ifPresent(d -> b.append(indent).append(d.hasBaseId() ? "[base " + d.baseId().getAsInt() + "] " : "")
          .append(d.key(f.id()))
          .append("  ").append(Formats.count(d.numDeletedRows(), "row")).append('\n'));
    }

    List<IndexListing.Entry> entries = IndexListing.of(ds, allocator);
    b.append("\nindices (name, type, columns, live fragments answered):\n");
    if (entries.stream().allMatch(IndexListing.Entry::system)) {
      b.append("  (none)\n");
    }
    for (IndexListing.Entry e : entries) {
      if (e.system()) {
        continue;
      }
      b.append("  ").append(e.name()).append("  ").append(e.kind()).append("  ").append(String.join(",", e.columns()))
          .append("  ").append(e.coverage()).append("  direct ").append(e.direct());
      if (!e.throughRowMaps().isEmpty()) {
        b.append("  through row maps ").append(e.throughRowMaps());
      }
      if (!e.unindexed().isEmpty()) {
        b.append("  unindexed ").append(e.unindexed());
      }
      b.append('\n');
    }
    for (IndexListing.Entry e : entries) {
      if (!e.system()) {
        continue;
      }
      b.append("\nsystem entry ").append(e.name()).append(": ").append(e.description()).append('\n');
      for (StablePartitionTransition t : e.transitions()) {
        List<Long> sources = new ArrayList<>();
        t.sources().forEach(src -> sources.add(src.id()));
        b.append("  read v").append(t.datasetVersion()).append("  ").append(sources).append(" -> ")
            .append(t.destinations()).append("  row map ").append(t.rowMapPath()).append('\n');
      }
    }
    return b.toString();
  }

  /** The version as the JSON object of {@code describe --json} (docs/cli-json.md). */
  static ObjectNode json(Dataset ds, BufferAllocator allocator) {
    Manifest m = ds.manifest();
    ObjectNode o = Json.object();
    o.put("dataset", ds.location());
    o.set("version", Json.unsigned(m.version()));
    o.put("timestamp", m.timestamp().map(Object::toString).orElse(null));
    o.put("writer", m.writerLibrary());
    o.put("file_version", m.fileVersion().toString());
    o.put("rows", m.countRows());
    o.put("branch", m.branch().orElse(null));
    o.put("reader_features", flags(m.readerFeatureFlags()));
    o.put("writer_features", flags(m.writerFeatureFlags()));
    ObjectNode config = o.putObject("config");
    new TreeMap<>(m.config()).forEach(config::put);
    ArrayNode schema = o.putArray("schema");
    m.schema().fields().forEach(f -> schema.add(field(f)));
    ArrayNode frags = o.putArray("fragments");
    for (Fragment f : m.fragments()) {
      ObjectNode j = frags.addObject();
      j.put("id", f.id());
      j.put("physical_rows", f.physicalRows());
      j.put("deleted_rows", f.deletionFile().map(DeletionFile::numDeletedRows).orElse(0L));
      ArrayNode files = j.putArray("files");
      for (DataFile d : f.files()) {
        ObjectNode file = files.addObject();
        file.put("path", "data/" + d.path());
        ArrayNode fields = file.putArray("fields");
        d.fields().forEach(fields::add);
        file.put("file_version", d.fileMajorVersion() + "." + d.fileMinorVersion());
        if (d.fileSizeBytes() > 0) {
          file.put("size_bytes", d.fileSizeBytes());
        } else {
          file.putNull("size_bytes");
        }
        if (d.hasBaseId()) {
          file.put("base_id", d.baseId().getAsInt());
        }
      }
      f.deletionFile().ifPresent(d -> j.putObject("deletion_file").put("path", d.key(f.id()))
          .put("rows", d.numDeletedRows()));
    }
    o.set("indices", IndexListing.json(IndexListing.of(ds, allocator)));
    return o;
  }

  private static ObjectNode field(LanceField f) {
    ObjectNode o = Json.object();
    o.put("id", f.id());
    o.put("name", f.name());
    o.put("type", f.logicalType());
    o.put("nullable", f.nullable());
    if (!f.metadata().isEmpty()) {
      ObjectNode meta = o.putObject("metadata");
      f.metadata().forEach(meta::put);
    }
    if (!f.children().isEmpty()) {
      ArrayNode children = o.putArray("children");
      f.children().forEach(c -> children.add(field(c)));
    }
    return o;
  }

  private static String flags(long flags) {
    return flags == 0 ? "none" : FeatureFlags.describe(flags);
  }
}
