package dev.javelin.core;

import com.google.protobuf.Any;
import dev.javelin.format.LanceFileReader;
import dev.javelin.format.ReadOptions;
import dev.javelin.format.schema.LanceField;
import dev.javelin.index.BTreeIndex;
import dev.javelin.index.BTreeIndexBuilder;
import dev.javelin.index.IndexType;
import dev.javelin.table.IndexBitmaps;
import dev.javelin.table.IndexUuids;
import dev.javelin.table.Deletes;
import dev.javelin.table.Fragment;
import dev.javelin.table.Manifest;
import dev.javelin.table.Table;
import dev.javelin.table.Transaction;
import dev.javelin.table.proto.TableProtos;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.roaringbitmap.RoaringBitmap;

/** Creating, listing and dropping a dataset's indices (each change is a CreateIndex commit). */
final class DatasetIndexes {
  private DatasetIndexes() {}

  /**
   * Builds a BTree over {@code column} from every row of every fragment and commits it.
   *
   * @param name the index name, or null for Lance's default {@code {column}_idx}
   * @param replace whether an index of the same name may be replaced
   */
  static Manifest create(Dataset ds, Table table, String column, IndexType type, String name, boolean replace,
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
    List<TableProtos.IndexMetadata> removed = new ArrayList<>();
    for (TableProtos.IndexMetadata existing : m.indices()) {
      if (existing.getName().equals(indexName)) {
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
      TableProtos.IndexMetadata meta = TableProtos.IndexMetadata.newBuilder()
          .setUuid(TableProtos.UUID.newBuilder().setUuid(IndexUuids.toBytes(uuid)))
          .addFields(field.id())
          .setName(indexName)
          .setDatasetVersion(m.version())
          .setFragmentBitmap(IndexBitmaps.write(covered))
          .setIndexDetails(Any.newBuilder().setTypeUrl(IndexType.BTREE_DETAILS_TYPE_URL))
          .setIndexVersion(0)
          .setCreatedAt(System.currentTimeMillis())
          .build();
      Transaction txn = Transaction.createIndex(m.version(), List.of(meta), removed);
      committed = true;
      return table.newCommit(txn).cleanupOnFailure(written).commit();
    } catch (IOException e) {
      throw new UncheckedIOException("Creating index '" + indexName + "' failed: " + ds.location(), e);
    } finally {
      if (!committed) {
        for (String k : written) {
          try {
            ds.store().delete(k);
          } catch (IOException | RuntimeException ignored) {
            // best effort; the original failure is what matters
          }
        }
      }
    }
  }

  // Row address = fragment id << 32 | physical row offset; deleted rows are left out, as Lance does.
  private static void addFragment(Dataset ds, Fragment f, LanceField field, BTreeIndexBuilder b,
      BufferAllocator allocator) throws IOException {
    RoaringBitmap deleted = Deletes.deletedRows(ds.store(), f, allocator);
    FragmentFiles.Part part = FragmentFiles.plan(f, List.of(field), ds.location()).get(0);
    if (part.rowsOnly) {
      addNulls(ds, f, field, deleted, b, allocator);
      return;
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
          addresses[i] = (f.id() << 32) | (offset + i);
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
  }

  // A fragment whose files lack the column (added later as all-null): every live row is a null.
  private static void addNulls(Dataset ds, Fragment f, LanceField field, RoaringBitmap deleted, BTreeIndexBuilder b,
      BufferAllocator allocator) throws IOException {
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
          addresses[i] = (f.id() << 32) | (start + i);
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

  /**
   * Brings every BTree up to date with the fragments added since it was built (Lance's optimize,
   * merging): a new BTree from the old one's entries (still-live rows of fragments still there)
   * and the new fragments' values replaces it under the same name. Indices already covering every
   * fragment are left alone.
   */
  static Manifest optimize(Dataset ds, Table table, BufferAllocator allocator) {
    Manifest m = ds.manifest();
    List<TableProtos.IndexMetadata> added = new ArrayList<>();
    List<TableProtos.IndexMetadata> removed = new ArrayList<>();
    List<String> written = new ArrayList<>();
    boolean committed = false;
    try {
      for (TableProtos.IndexMetadata old : m.indices()) {
        if (IndexType.fromDetailsTypeUrl(old.getIndexDetails().getTypeUrl()) != IndexType.BTREE
            || old.getFieldsCount() != 1) {
          continue;
        }
        LanceField field = null;
        for (LanceField f : ds.schema().fields()) {
          if (f.id() == old.getFields(0)) {
            field = f;
          }
        }
        RoaringBitmap covered = fragmentBitmap(old, ds.location());
        List<Fragment> fresh = new ArrayList<>();
        for (Fragment f : m.fragments()) {
          if (!covered.contains((int) f.id())) {
            fresh.add(f);
          }
        }
        if (field == null || fresh.isEmpty()) {
          continue;
        }
        String uuid = UUID.randomUUID().toString();
        String dir = BTreeIndex.directory(uuid);
        written.add(dir + "/page_data.lance");
        written.add(dir + "/page_lookup.lance");
        RoaringBitmap now = new RoaringBitmap();
        try (BTreeIndexBuilder b = new BTreeIndexBuilder(field.toArrow(), BTreeIndexBuilder.Options.defaults(),
            allocator)) {
          Map<Long, RoaringBitmap> live = new HashMap<>();
          for (Fragment f : m.fragments()) {
            if (covered.contains((int) f.id())) {
              live.put(f.id(), Deletes.deletedRows(ds.store(), f, allocator));
              now.add((int) f.id());
            }
          }
          addOldEntries(ds, old, field, live, b, allocator);
          for (Fragment f : fresh) {
            addFragment(ds, f, field, b, allocator);
            now.add((int) f.id());
          }
          b.finish(ds.store(), dir);
        }
        removed.add(old);
        added.add(dev.javelin.table.IndexEntries.renewed(old,
                TableProtos.UUID.newBuilder().setUuid(IndexUuids.toBytes(uuid)).build())
            .setDatasetVersion(m.version())
            .setFragmentBitmap(IndexBitmaps.write(now))
            .setCreatedAt(System.currentTimeMillis())
            .build());
      }
      if (added.isEmpty()) {
        committed = true;
        return m;
      }
      Transaction txn = Transaction.createIndex(m.version(), added, removed);
      committed = true;
      return table.newCommit(txn).cleanupOnFailure(written).commit();
    } catch (IOException e) {
      throw new UncheckedIOException("Optimizing indices failed: " + ds.location(), e);
    } finally {
      if (!committed) {
        for (String k : written) {
          try {
            ds.store().delete(k);
          } catch (IOException | RuntimeException ignored) {
            // best effort; the original failure is what matters
          }
        }
      }
    }
  }

  // Feeds the old index's (value, address) entries whose fragment is still there (deleted -> its
  // deletion vector) and whose row is not deleted into the builder.
  private static void addOldEntries(Dataset ds, TableProtos.IndexMetadata old, LanceField field,
      Map<Long, RoaringBitmap> deleted, BTreeIndexBuilder b, BufferAllocator allocator) throws IOException {
    String path = BTreeIndex.directory(IndexUuids.toText(old.getUuid().getUuid())) + "/page_data.lance";
    dev.javelin.table.io.ObjectStore indexStore = ds.manifest().basePaths().indexStore(ds.store(), old);
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
          while (i < n && keep(ids.get(i), deleted)) {
            addresses[i] = ids.get(i);
            i++;
          }
          if (i > from) {
            b.add(values, addresses, from, i - from);
          }
          while (i < n && !keep(ids.get(i), deleted)) {
            i++;
          }
        }
      }
    }
  }

  private static boolean keep(long address, Map<Long, RoaringBitmap> deleted) {
    RoaringBitmap d = deleted.get(address >>> 32);
    return d != null && !d.contains((int) (address & 0xFFFFFFFFL));
  }

  /** Drops the index named {@code name}. */
  static Manifest drop(Dataset ds, Table table, String name) {
    for (TableProtos.IndexMetadata existing : ds.manifest().indices()) {
      if (existing.getName().equals(name)) {
        return table.newCommit(Transaction.createIndex(ds.version(), List.of(), List.of(existing))).commit();
      }
    }
    throw new IllegalArgumentException("Index '" + name + "' does not exist: " + ds.location());
  }

  static List<IndexInfo> list(Dataset ds) {
    List<IndexInfo> out = new ArrayList<>();
    for (TableProtos.IndexMetadata i : ds.manifest().indices()) {
      List<String> fields = new ArrayList<>();
      for (int id : i.getFieldsList()) {
        String fieldName = "#" + id;
        for (LanceField f : ds.schema().flatten()) {
          if (f.id() == id) {
            fieldName = f.name();
          }
        }
        fields.add(fieldName);
      }
      Set<Long> fragments = new LinkedHashSet<>();
      for (int id : fragmentBitmap(i, ds.location())) {
        fragments.add(Integer.toUnsignedLong(id));
      }
      // System entries' bitmaps are provenance, not coverage: nothing is derived from them.
      Set<Long> through = i.getName().startsWith("__lance_") ? Set.of()
          : java.util.Collections.unmodifiableSet(
              new LinkedHashSet<>(IndexCoverage.of(ds, i).translated(ds.manifest().fragments())));
      out.add(new IndexInfo(i.getName(), IndexUuids.toText(i.getUuid().getUuid()),
          IndexType.fromDetailsTypeUrl(i.getIndexDetails().getTypeUrl()), List.copyOf(fields), fragments,
          i.getDatasetVersion(), through));
    }
    return out;
  }

  /** The ids of the fragments an index covers (its {@code fragment_bitmap}). */
  static RoaringBitmap fragmentBitmap(TableProtos.IndexMetadata i, String location) {
    RoaringBitmap b = new RoaringBitmap();
    if (!i.getFragmentBitmap().isEmpty()) {
      try {
        b.deserialize(i.getFragmentBitmap().asReadOnlyByteBuffer().order(ByteOrder.LITTLE_ENDIAN));
      } catch (IOException e) {
        throw new UncheckedIOException("Index '" + i.getName() + "' has a bad fragment_bitmap: " + location, e);
      }
    }
    return b;
  }
}
