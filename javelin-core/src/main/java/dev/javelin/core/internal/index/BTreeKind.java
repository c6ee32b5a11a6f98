package dev.javelin.core.internal.index;

import com.google.protobuf.ByteString;
import dev.javelin.core.Dataset;
import dev.javelin.format.LanceFileReader;
import dev.javelin.format.ReadOptions;
import dev.javelin.format.schema.LanceField;
import dev.javelin.index.IndexType;
import dev.javelin.index.internal.btree.BTreeIndex;
import dev.javelin.index.internal.btree.BTreeIndexBuilder;
import dev.javelin.io.ObjectStore;
import dev.javelin.table.Fragment;
import dev.javelin.table.IndexMetadata;
import java.io.IOException;
import java.util.List;
import java.util.function.LongPredicate;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.roaringbitmap.RoaringBitmap;

/**
 * BTree indices ({@code page_data.lance} and {@code page_lookup.lance}): every live row's value,
 * nulls included, sorted by value. Optimize merges the entries' still-live (value, row id) pairs
 * with the fresh fragments' rows into one new tree.
 */
final class BTreeKind implements IndexKind {
  @Override
  public LanceField field(Dataset ds, String column) {
    return ds.fields(List.of(column)).get(0);
  }

  @Override
  public List<String> fileNames() {
    return List.of("page_data.lance", "page_lookup.lance");
  }

  @Override
  public IndexKind.Builder create(Dataset ds, LanceField field, BufferAllocator allocator) {
    return new Builder(field, true, allocator);
  }

  @Override
  public Extension extend(Dataset ds, List<IndexMetadata> entries, LanceField field, List<Fragment> fresh,
      BufferAllocator allocator) throws IOException {
    Builder b = new Builder(field, false, allocator);
    try {
      for (IndexMetadata old : entries) {
        RoaringBitmap bitmap = old.fragmentBitmap();
        b.dropped += addOldEntries(ds, old, IndexRowIds.liveIn(ds, bitmap, allocator), b.tree, allocator);
      }
    } catch (IOException | RuntimeException e) {
      b.close();
      throw e;
    }
    return new Extension(b, fresh);
  }

  // Feeds the old index's (value, row id) entries that keep accepts into the builder; returns how
  // many it rejected.
  private static long addOldEntries(Dataset ds, IndexMetadata old, LongPredicate keep, BTreeIndexBuilder b,
      BufferAllocator allocator) throws IOException {
    String path = BTreeIndex.directory(old.uuid()) + "/page_data.lance";
    long dropped = 0;
    ObjectStore indexStore = ds.manifest().basePaths().indexStore(ds.store(), old);
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

  /** The tree being built, over the sort buffer of a {@link BTreeIndexBuilder}. */
  private static final class Builder implements IndexKind.Builder {
    private final BTreeIndexBuilder tree;
    // Whether this is a new index (not an extension of entries, whose details the entry keeps).
    private final boolean created;
    private long added;
    private long dropped;

    Builder(LanceField field, boolean created, BufferAllocator allocator) {
      this.tree = new BTreeIndexBuilder(field.toArrow(), BTreeIndexBuilder.Options.defaults(), allocator);
      this.created = created;
    }

    @Override
    public void add(FieldVector values, long[] ids, int n) throws IOException {
      tree.add(values, ids, 0, n);
      added += n;
    }

    @Override
    public List<IndexMetadata.IndexFile> write(ObjectStore store, String directory) throws IOException {
      tree.finish(store, directory);
      return List.of(); // Javelin's BTree entries do not list their files
    }

    @Override
    public void describe(IndexMetadata.Builder entry) {
      if (created) {
        entry.details(new IndexMetadata.Details(IndexType.BTREE_DETAILS_TYPE_URL, ByteString.EMPTY)).indexVersion(0);
      }
    }

    @Override
    public long rowsAdded() {
      return added;
    }

    @Override
    public long rowsDropped() {
      return dropped;
    }

    @Override
    public void close() {
      tree.close();
    }
  }
}
