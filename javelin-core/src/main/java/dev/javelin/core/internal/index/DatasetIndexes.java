package dev.javelin.core.internal.index;

import dev.javelin.core.Dataset;
import dev.javelin.core.IndexInfo;
import dev.javelin.core.OptimizedIndex;
import dev.javelin.core.internal.overlay.OverlayApplier;
import dev.javelin.core.internal.scan.FragmentFiles;
import dev.javelin.format.LanceFileReader;
import dev.javelin.format.ReadOptions;
import dev.javelin.format.schema.LanceField;
import dev.javelin.index.IndexType;
import dev.javelin.index.exceptions.VectorIndexException;
import dev.javelin.index.internal.btree.BTreeIndex;
import dev.javelin.index.internal.btree.BTreeIndexBuilder;
import dev.javelin.table.Fragment;
import dev.javelin.table.IndexMetadata;
import dev.javelin.table.Manifest;
import dev.javelin.table.Table;
import dev.javelin.table.Transaction;
import dev.javelin.table.deletion.Deletes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.LongPredicate;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.roaringbitmap.RoaringBitmap;

/** Creating, listing and dropping a dataset's indices (each change is a CreateIndex commit). */
public final class DatasetIndexes {
  private DatasetIndexes() {}

  /**
   * Builds a BTree over {@code column} from every row of every fragment and commits it.
   *
   * @param name the index name, or null for Lance's default {@code {column}_idx}
   * @param replace whether an index of the same name may be replaced
   */
  public static Manifest create(Dataset ds, Table table, String column, IndexType type, String name, boolean replace,
      BufferAllocator allocator) {
    if (type == IndexType.VECTOR) {
      return VectorIndexBuild.create(ds, table, column, null, name, replace, allocator);
    }
    if (type != IndexType.BTREE) {
      throw new UnsupportedOperationException("Javelin cannot build " + type + " indices yet: " + ds.location());
    }
    LanceField field = ds.fields(List.of(column)).get(0);
    String indexName = name == null ? column + "_idx" : name;
    Manifest m = ds.manifest();
    List<IndexMetadata> removed = new ArrayList<>();
    for (IndexMetadata existing : m.indices()) {
      if (existing.name().equals(indexName)) {
        if (!replace) {
          throw new IllegalArgumentException("Index '" + indexName + "' already exists: " + ds.location());
        }
        removed.add(existing);
      }
    }
    String uuid = UUID.randomUUID().toString();
    String dir = BTreeIndex.directory(uuid);
    List<String> written = List.of(dir + "/page_data.lance", dir + "/page_lookup.lance");
    boolean committed = false;
    try {
      RoaringBitmap covered = new RoaringBitmap();
      try (BTreeIndexBuilder b = new BTreeIndexBuilder(field.toArrow(), BTreeIndexBuilder.Options.defaults(),
          allocator)) {
        for (Fragment f : m.fragments()) {
          addFragment(ds, f, field, b, allocator);
          covered.add((int) f.id());
        }
        b.finish(ds.store(), dir);
      }
      IndexMetadata meta = IndexMetadata.builder()
          .uuid(uuid)
          .fields(List.of(field.id()))
          .name(indexName)
          .datasetVersion(m.version())
          .fragmentBitmap(covered)
          .details(IndexType.BTREE_DETAILS_TYPE_URL)
          .indexVersion(0)
          .createdAt(System.currentTimeMillis())
          .build();
      Transaction txn = Transaction.createIndex(m.version(), List.of(meta), removed);
      committed = true;
      return table.newCommit(txn).cleanupOnFailure(written).commit();
    } catch (IOException e) {
      throw new UncheckedIOException("Creating index '" + indexName + "' failed: " + ds.location(), e);
    } finally {
      if (!committed) {
        deleteQuietly(ds, written);
      }
    }
  }

  // Each row under its index row id (IndexRowIds); deleted rows are left out, as Lance does.
  // Returns the number of rows added.
  private static long addFragment(Dataset ds, Fragment f, LanceField field, BTreeIndexBuilder b,
      BufferAllocator allocator) throws IOException {
    RoaringBitmap deleted = Deletes.deletedRows(ds.store(), f, allocator);
    long[] ids = IndexRowIds.of(ds, f);
    FragmentFiles.Part part = FragmentFiles.plan(f, List.of(field), ds.location()).get(0);
    if (part.rowsOnly) {
      addNulls(ds, f, ids, field, deleted, b, allocator);
      return f.physicalRows() - deleted.getLongCardinality();
    }
    try (LanceFileReader r = FragmentFiles.open(ds.store(), part, allocator);
        ArrowReader in = r.read(ReadOptions.builder()
            .columns(FragmentFiles.columnNames(r, part, ds.location())).build());
        OverlayApplier overlays = OverlayApplier.open(ds.store(), ds.location(), f, List.of(field), allocator)) {
      long offset = 0;
      long[] addresses = new long[0];
      while (in.loadNextBatch()) {
        VectorSchemaRoot batch = in.getVectorSchemaRoot();
        int n = batch.getRowCount();
        if (addresses.length < n) {
          addresses = new long[n];
        }
        for (int i = 0; i < n; i++) {
          addresses[i] = IndexRowIds.id(ids, f.id(), offset + i);
        }
        FieldVector[] values = {batch.getVector(0)};
        // The index holds the values reads see: overlays applied.
        List<FieldVector> made = overlays == null ? List.of() : overlays.apply(values, offset, n);
        try {
          addLive(values[0], addresses, n, offset, deleted, b);
        } finally {
          made.forEach(FieldVector::close);
        }
        offset += n;
      }
    }
    return f.physicalRows() - deleted.getLongCardinality();
  }

  // A fragment whose files lack the column (added later as all-null): every live row is a null.
  private static void addNulls(Dataset ds, Fragment f, long[] ids, LanceField field, RoaringBitmap deleted,
      BTreeIndexBuilder b, BufferAllocator allocator) throws IOException {
    int chunk = 8192;
    try (FieldVector nulls = field.toArrow().createVector(allocator);
        OverlayApplier overlays = OverlayApplier.open(ds.store(), ds.location(), f, List.of(field), allocator)) {
      nulls.setInitialCapacity(chunk);
      nulls.allocateNew();
      nulls.setValueCount(chunk);
      long[] addresses = new long[chunk];
      for (long start = 0; start < f.physicalRows(); start += chunk) {
        int n = (int) Math.min(chunk, f.physicalRows() - start);
        for (int i = 0; i < n; i++) {
          addresses[i] = IndexRowIds.id(ids, f.id(), start + i);
        }
        FieldVector[] values = {nulls};
        List<FieldVector> made = overlays == null ? List.of() : overlays.apply(values, start, n);
        try {
          addLive(values[0], addresses, n, start, deleted, b);
        } finally {
          made.forEach(FieldVector::close);
        }
      }
    }
  }

  // Adds the runs of rows [0, n) of a batch starting at physical row `start` that are not deleted.
  private static void addLive(FieldVector values, long[] addresses, int n, long start, RoaringBitmap deleted,
      BTreeIndexBuilder b) throws IOException {
    if (deleted.isEmpty() || deleted.rangeCardinality(start, start + n) == 0) {
      b.add(values, addresses, 0, n);
      return;
    }
    int i = 0;
    while (i < n) {
      while (i < n && deleted.contains((int) (start + i))) {
        i++;
      }
      int from = i;
      while (i < n && !deleted.contains((int) (start + i))) {
        i++;
      }
      if (i > from) {
        b.add(values, addresses, from, i - from);
      }
    }
  }

  /** What {@link #optimize} committed ({@code manifest} is the read one when nothing) and its report. */
  public record Optimized(Manifest manifest, List<OptimizedIndex> report) {}

  /**
   * Brings every index up to date with the fragments added since it was built (Lance's
   * incremental optimize, merged into one index per name):
   * for each index name, one new index replaces its entries (the index and any delta indices),
   * holding their still-live rows and the rows of the fragments none of them covers. A BTree's
   * values are merged into a new tree; a vector index keeps its IVF centroids and PQ codebook, the
   * new rows assigned to its partitions (see {@link VectorIndexBuild#extend}). An index of one
   * entry covering every fragment is left alone, and so is one Javelin cannot update (reported as
   * skipped, with the reason). Everything changed commits as one CreateIndex.
   */
  public static Optimized optimize(Dataset ds, Table table, BufferAllocator allocator) {
    Manifest m = ds.manifest();
    Map<String, List<IndexMetadata>> byName = new LinkedHashMap<>();
    for (IndexMetadata i : m.indices()) {
      if (!i.isSystem()) {
        byName.computeIfAbsent(i.name(), k -> new ArrayList<>()).add(i);
      }
    }
    List<OptimizedIndex> report = new ArrayList<>();
    List<IndexMetadata> added = new ArrayList<>();
    List<IndexMetadata> removed = new ArrayList<>();
    List<String> written = new ArrayList<>();
    boolean committed = false;
    try {
      for (var e : byName.entrySet()) {
        String name = e.getKey();
        List<IndexMetadata> entries = e.getValue();
        IndexMetadata first = entries.get(0);
        IndexType type = IndexType.fromDetailsTypeUrl(first.details().typeUrl());
        RoaringBitmap covered = new RoaringBitmap();
        entries.forEach(i -> covered.or(i.fragmentBitmap()));
        List<Fragment> fresh = new ArrayList<>();
        List<Long> freshIds = new ArrayList<>();
        for (Fragment f : m.fragments()) {
          if (!covered.contains((int) f.id())) {
            fresh.add(f);
            freshIds.add(f.id());
          }
        }
        LanceField field = first.fields().size() == 1 ? fieldById(ds, first.fields().get(0)) : null;
        String skip = type == IndexType.OTHER ? "Javelin cannot update this kind of index ("
            + first.details().typeUrl() + ")"
            : first.fields().size() != 1 ? "Javelin updates indices of one column only"
            : field == null ? "its column (field id " + first.fields().get(0) + ") is not in the schema" : null;
        if (skip == null && fresh.isEmpty() && entries.size() == 1) {
          report.add(new OptimizedIndex(name, type, OptimizedIndex.Outcome.UNCHANGED, List.of(), 0, 0, 0, ""));
          continue;
        }
        if (skip != null) {
          report.add(new OptimizedIndex(name, type, OptimizedIndex.Outcome.SKIPPED, List.of(), 0, 0, 0, skip));
          continue;
        }
        if (type == IndexType.VECTOR) {
          VectorIndexBuild.Extended x;
          try {
            x = VectorIndexBuild.extend(ds, entries, field, fresh, allocator);
          } catch (VectorIndexException unreadable) {
            report.add(new OptimizedIndex(name, type, OptimizedIndex.Outcome.SKIPPED, List.of(), 0, 0, 0,
                unreadable.getMessage()));
            continue;
          }
          written.addAll(x.files());
          added.add(x.entry());
          report.add(new OptimizedIndex(name, type, OptimizedIndex.Outcome.MERGED, freshIds, x.rowsAdded(),
              x.rowsDropped(), entries.size(), ""));
        } else {
          long[] counts = new long[2];
          added.add(mergeBTree(ds, entries, field, fresh, written, counts, allocator));
          report.add(new OptimizedIndex(name, type, OptimizedIndex.Outcome.MERGED, freshIds, counts[0], counts[1],
              entries.size(), ""));
        }
        removed.addAll(entries);
      }
      if (added.isEmpty()) {
        committed = true;
        return new Optimized(m, report);
      }
      Transaction txn = Transaction.createIndex(m.version(), added, removed);
      committed = true;
      return new Optimized(table.newCommit(txn).cleanupOnFailure(written).commit(), report);
    } catch (IOException e) {
      throw new UncheckedIOException("Optimizing indices failed: " + ds.location(), e);
    } finally {
      if (!committed) {
        deleteQuietly(ds, written);
      }
    }
  }

  private static LanceField fieldById(Dataset ds, int id) {
    for (LanceField f : ds.schema().fields()) {
      if (f.id() == id) {
        return f;
      }
    }
    return null;
  }

  /**
   * A new BTree from the entries' (value, row id) pairs of live rows of the fragments they cover
   * and the {@code fresh} fragments' values; its files are added to {@code written}, the rows
   * added and dropped to {@code counts[0]} and {@code counts[1]}.
   */
  private static IndexMetadata mergeBTree(Dataset ds, List<IndexMetadata> entries,
      LanceField field, List<Fragment> fresh, List<String> written, long[] counts, BufferAllocator allocator)
      throws IOException {
    Manifest m = ds.manifest();
    String uuid = UUID.randomUUID().toString();
    String dir = BTreeIndex.directory(uuid);
    written.add(dir + "/page_data.lance");
    written.add(dir + "/page_lookup.lance");
    RoaringBitmap now = new RoaringBitmap();
    try (BTreeIndexBuilder b = new BTreeIndexBuilder(field.toArrow(), BTreeIndexBuilder.Options.defaults(),
        allocator)) {
      for (IndexMetadata old : entries) {
        RoaringBitmap bitmap = old.fragmentBitmap();
        counts[1] += addOldEntries(ds, old, IndexRowIds.liveIn(ds, bitmap, allocator), b, allocator);
        for (Fragment f : m.fragments()) {
          if (bitmap.contains((int) f.id())) {
            now.add((int) f.id());
          }
        }
      }
      for (Fragment f : fresh) {
        counts[0] += addFragment(ds, f, field, b, allocator);
        now.add((int) f.id());
      }
      b.finish(ds.store(), dir);
    }
    return entries.get(0).renewed(uuid)
        .datasetVersion(m.version())
        .fragmentBitmap(now)
        .createdAt(System.currentTimeMillis())
        .build();
  }

  // Feeds the old index's (value, row id) entries that keep accepts into the builder; returns how
  // many it rejected.
  private static long addOldEntries(Dataset ds, IndexMetadata old, LongPredicate keep,
      BTreeIndexBuilder b, BufferAllocator allocator) throws IOException {
    String path = BTreeIndex.directory(old.uuid()) + "/page_data.lance";
    long dropped = 0;
    dev.javelin.io.ObjectStore indexStore = ds.manifest().basePaths().indexStore(ds.store(), old);
    try (LanceFileReader r = LanceFileReader.open(indexStore.open(path), allocator);
        ArrowReader in = r.read(ReadOptions.builder().columns(List.of("values", "ids")).build())) {
      long[] addresses = new long[0];
      while (in.loadNextBatch()) {
        VectorSchemaRoot batch = in.getVectorSchemaRoot();
        int n = batch.getRowCount();
        UInt8Vector ids = (UInt8Vector) batch.getVector("ids");
        FieldVector values = batch.getVector("values");
        if (addresses.length < n) {
          addresses = new long[n];
        }
        int i = 0;
        while (i < n) {
          int from = i;
          while (i < n && keep.test(ids.get(i))) {
            addresses[i] = ids.get(i);
            i++;
          }
          if (i > from) {
            b.add(values, addresses, from, i - from);
          }
          while (i < n && !keep.test(ids.get(i))) {
            dropped++;
            i++;
          }
        }
      }
    }
    return dropped;
  }

  /** Deletes files a failed operation wrote, best effort: the original failure is what matters. */
  static void deleteQuietly(Dataset ds, List<String> keys) {
    for (String k : keys) {
      try {
        ds.store().delete(k);
      } catch (IOException | RuntimeException ignored) {
        // best effort
      }
    }
  }

  /** Drops the index named {@code name}. */
  public static Manifest drop(Dataset ds, Table table, String name) {
    for (IndexMetadata existing : ds.manifest().indices()) {
      if (existing.name().equals(name)) {
        return table.newCommit(Transaction.createIndex(ds.version(), List.of(), List.of(existing))).commit();
      }
    }
    throw new IllegalArgumentException("Index '" + name + "' does not exist: " + ds.location());
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
          : java.util.Collections.unmodifiableSet(
              new LinkedHashSet<>(IndexCoverage.of(ds, i).translated(ds.manifest().fragments())));
      out.add(new IndexInfo(i.name(), i.uuid(), IndexType.fromDetailsTypeUrl(i.details().typeUrl()),
          List.copyOf(fields), fragments, i.datasetVersion(), through));
    }
    return out;
  }
}
