package dev.javelin.core.internal.index;

import dev.javelin.core.Dataset;
import dev.javelin.core.IndexInfo;
import dev.javelin.core.exceptions.IndexNotFoundException;
import dev.javelin.format.schema.LanceField;
import dev.javelin.index.IndexType;
import dev.javelin.table.IndexMetadata;
import dev.javelin.table.Manifest;
import dev.javelin.table.Table;
import dev.javelin.table.Transaction;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Listing and dropping a dataset's indices (a drop is a CreateIndex commit); {@link IndexBuild}
 * creates and optimizes them.
 */
public final class DatasetIndexes {
  private DatasetIndexes() {}

  /** Drops the index named {@code name}. */
  public static Manifest drop(Dataset ds, Table table, String name) {
    for (IndexMetadata existing : ds.manifest().indices()) {
      if (existing.name().equals(name)) {
        return table.newCommit(Transaction.createIndex(ds.version(), List.of(), List.of(existing))).commit();
      }
    }
    throw new IndexNotFoundException(ds.location(), name);
  }

  public static List<IndexInfo> list(Dataset ds) {
    List<IndexInfo> out = new ArrayList<>();
    for (IndexMetadata i : ds.manifest().indices()) {
      List<String> fields = new ArrayList<>();
      for (int id : i.fields()) {
        String fieldName = "#" + id;
        for (LanceField f : ds.schema().flatten()) {
          if (f.id() == id) {
            fieldName = f.name();
          }
        }
        fields.add(fieldName);
      }
      Set<Long> fragments = new LinkedHashSet<>();
      for (int id : i.fragmentBitmap()) {
        fragments.add(Integer.toUnsignedLong(id));
      }
      // System entries' bitmaps are provenance, not coverage: nothing is derived from them.
      Set<Long> through = i.isSystem() ? Set.of()
          : Collections.unmodifiableSet(
              new LinkedHashSet<>(IndexCoverage.of(ds, i).translated(ds.manifest().fragments())));
      out.add(new IndexInfo(i.name(), i.uuid(), IndexType.fromDetailsTypeUrl(i.details().typeUrl()),
          List.copyOf(fields), fragments, i.datasetVersion(), through));
    }
    return out;
  }
}
