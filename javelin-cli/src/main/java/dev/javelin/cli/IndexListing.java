package dev.javelin.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.javelin.common.Json;
import dev.javelin.core.Dataset;
import dev.javelin.core.IndexInfo;
import dev.javelin.format.LanceFileReader;
import dev.javelin.index.IndexType;
import dev.javelin.table.Fragment;
import dev.javelin.table.IndexMetadata;
import dev.javelin.table.stablepartition.StablePartitionEntry;
import dev.javelin.table.stablepartition.StablePartitionTransition;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;

/**
 * A dataset version's index entries as the {@code index} and {@code describe} commands show them:
 * each index's kind by Lance's name (BTREE, BITMAP, ..., IVF_PQ, IVF_HNSW_SQ, ...), its coverage
 * as queries see it (fragments it covers directly plus those it answers for through clustering's
 * row maps, out of the live fragments), and the system entries apart, named for what they are.
 */
final class IndexListing {
  /** The system entry of a compaction that deferred its index remap ({@code deferIndexRemap}). */
  static final String FRAG_REUSE = "__lance_frag_reuse";

  /**
   * One index entry.
   *
   * @param kind Lance's name of the index type (BTREE, IVF_PQ, ...), or for a system entry
   *     STABLE_PARTITION, FRAGMENT_REUSE or SYSTEM
   * @param description what a system entry is, for people; null for indices
   * @param direct live fragments it covers through its own bitmap
   * @param throughRowMaps live fragments it answers for through clustering's row maps
   * @param unindexed live fragments whose rows it does not hold (queries scan them)
   * @param transitions a stable partition entry's reordered rewrites; empty otherwise
   */
  record Entry(IndexMetadata metadata, String kind, String description, List<String> columns, List<Long> direct,
      List<Long> throughRowMaps, List<Long> unindexed, List<StablePartitionTransition> transitions) {
    boolean system() {
      return metadata.isSystem();
    }

    String name() {
      return metadata.name();
    }

    int liveFragments() {
      return direct.size() + throughRowMaps.size() + unindexed.size();
    }

    /** "4 of 4 (3 through row maps)", "3 of 4". */
    String coverage() {
      String s = (direct.size() + throughRowMaps.size()) + " of " + liveFragments();
      return throughRowMaps.isEmpty() ? s : s + " (" + throughRowMaps.size() + " through row maps)";
    }
  }

  private IndexListing() {}

  /** Every entry of the dataset version's manifest, in manifest order. */
  static List<Entry> of(Dataset ds, BufferAllocator allocator) {
    Map<String, IndexInfo> infos = new HashMap<>();
    for (IndexInfo i : ds.indices()) {
      infos.put(i.name(), i);
    }
    List<Entry> out = new ArrayList<>();
    for (IndexMetadata m : ds.manifest().indices()) {
      IndexInfo info = infos.get(m.name());
      List<String> columns = info == null ? List.of() : info.fields();
      if (m.isSystem()) {
        out.add(system(ds, m, columns));
        continue;
      }
      List<Long> direct = new ArrayList<>();
      List<Long> through = new ArrayList<>();
      List<Long> unindexed = new ArrayList<>();
      Set<Long> own = info == null ? Set.of() : info.fragments();
      Set<Long> mapped = info == null ? Set.of() : info.throughRowMaps();
      for (Fragment f : ds.manifest().fragments()) {
        (own.contains(f.id()) ? direct : mapped.contains(f.id()) ? through : unindexed).add(f.id());
      }
      out.add(new Entry(m, kind(ds, m, allocator), null, columns, direct, through, unindexed, List.of()));
    }
    return out;
  }

  private static Entry system(Dataset ds, IndexMetadata m, List<String> columns) {
    if (m.name().equals(StablePartitionEntry.NAME)) {
      List<StablePartitionTransition> ts;
      try {
        ts = StablePartitionEntry.transitions(m, ds.store());
      } catch (IOException e) {
        throw new UncheckedIOException("Reading the " + StablePartitionEntry.NAME + " entry failed: "
            + ds.location(), e);
      }
      return new Entry(m, "STABLE_PARTITION", "stable partition transitions (" + Formats.count(ts.size(),
          "reordered rewrite") + " with row maps; 'javelin index settle' drops them)", columns, List.of(), List.of(),
          List.of(), ts);
    }
    if (m.name().equals(FRAG_REUSE)) {
      return new Entry(m, "FRAGMENT_REUSE", "fragment reuse (old-to-new row addresses of a compaction whose "
          + "index remap was deferred)", columns, List.of(), List.of(), List.of(), List.of());
    }
    return new Entry(m, "SYSTEM", "system entry (" + detailsName(m) + ")", columns, List.of(), List.of(), List.of(),
        List.of());
  }

  /**
   * Lance's name for the kind of an index: scalar kinds by their details type, vector kinds by the
   * {@code lance:index} metadata of their {@code index.idx} (the details type is the same for all).
   */
  static String kind(Dataset ds, IndexMetadata m, BufferAllocator allocator) {
    if (!m.hasDetails()) {
      return "UNKNOWN";
    }
    IndexType type = IndexType.fromDetailsTypeUrl(m.details().typeUrl());
    if (type == IndexType.VECTOR) {
      return vectorKind(ds, m, allocator);
    }
    if (type != IndexType.OTHER) {
      return type.name();
    }
    // Kinds Javelin does not read, by their details message: InvertedIndexDetails is INVERTED.
    String details = detailsName(m);
    return details.endsWith("IndexDetails")
        ? details.substring(0, details.length() - "IndexDetails".length()).toUpperCase(Locale.ROOT) : details;
  }

  private static String detailsName(IndexMetadata m) {
    String url = m.hasDetails() ? m.details().typeUrl() : "";
    return url.substring(url.lastIndexOf('.') + 1);
  }

  // IVF_PQ, IVF_FLAT, IVF_SQ, IVF_RQ, IVF_HNSW_SQ, IVF_HNSW_PQ, ...: index.idx's schema metadata
  // says, as "lance:index": {"type": "IVF_PQ", "distance_type": "l2"}. Files under another base
  // path (a clone's) or unreadable files leave it at VECTOR.
  private static String vectorKind(Dataset ds, IndexMetadata m, BufferAllocator allocator) {
    if (m.baseId().isPresent()) {
      return "VECTOR";
    }
    try (LanceFileReader r = LanceFileReader.open(ds.store().open("_indices/" + m.uuid() + "/index.idx"),
        allocator)) {
      String meta = r.lanceSchema().metadata().get("lance:index");
      JsonNode type = meta == null ? null : Json.tree(meta).get("type");
      return type != null && type.isTextual() ? type.textValue() : "VECTOR";
    } catch (IOException | RuntimeException e) {
      return "VECTOR";
    }
  }

  /** The entries as the JSON array of {@code index list --json} (docs/cli-json.md). */
  static ArrayNode json(List<Entry> entries) {
    ArrayNode all = Json.array();
    for (Entry e : entries) {
      all.add(json(e));
    }
    return all;
  }

  static ObjectNode json(Entry e) {
    ObjectNode o = Json.object();
    o.put("name", e.name());
    o.put("uuid", e.metadata().uuid());
    o.put("type", e.kind());
    o.put("system", e.system());
    if (e.description() != null) {
      o.put("description", e.description());
    }
    ArrayNode cols = o.putArray("columns");
    e.columns().forEach(cols::add);
    o.set("dataset_version", Json.unsigned(e.metadata().datasetVersion()));
    if (!e.system()) {
      ObjectNode cov = o.putObject("fragments");
      cov.put("live", e.liveFragments());
      cov.put("covered", e.direct().size() + e.throughRowMaps().size());
      ids(cov.putArray("direct"), e.direct());
      ids(cov.putArray("through_row_maps"), e.throughRowMaps());
      ids(cov.putArray("unindexed"), e.unindexed());
    }
    if (e.kind().equals("STABLE_PARTITION")) {
      ArrayNode ts = o.putArray("transitions");
      for (StablePartitionTransition t : e.transitions()) {
        ObjectNode j = ts.addObject();
        j.set("read_version", Json.unsigned(t.datasetVersion()));
        ArrayNode src = j.putArray("sources");
        t.sources().forEach(s -> src.add(s.id()));
        ids(j.putArray("destinations"), t.destinations());
        j.put("row_map", t.rowMapPath());
      }
    }
    return o;
  }

  private static void ids(ArrayNode a, List<Long> ids) {
    ids.forEach(a::add);
  }
}
