package dev.javelin.core.internal.index;

import com.google.protobuf.ByteString;
import dev.javelin.core.Dataset;
import dev.javelin.format.schema.LanceField;
import dev.javelin.index.IndexType;
import dev.javelin.index.internal.bitmap.BitmapIndex;
import dev.javelin.index.internal.bitmap.BitmapIndexWriter;
import dev.javelin.io.ObjectStore;
import dev.javelin.table.Fragment;
import dev.javelin.table.IndexMetadata;
import java.io.IOException;
import java.util.List;
import java.util.function.LongPredicate;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;

/**
 * Bitmap indices ({@code bitmap_page_lookup.lance}): the rows of each distinct value. Optimize
 * carries the entries' still-live rows over value by value and adds the fresh fragments' rows.
 */
final class BitmapKind implements IndexKind {
  @Override
  public LanceField field(Dataset ds, String column) {
    return ScalarColumns.field(ds, column, "bitmap");
  }

  @Override
  public List<String> fileNames() {
    return List.of(BitmapIndex.FILE_NAME);
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
        LongPredicate keep = IndexRowIds.liveIn(ds, old.fragmentBitmap(), allocator);
        ObjectStore from = ds.manifest().basePaths().indexStore(ds.store(), old);
        BitmapIndex.scan(from, IndexBuild.directory(old.uuid()), allocator,
            (keys, i, rows) -> b.dropped += b.writer.addAll(keys, i, rows, keep));
      }
    } catch (IOException | RuntimeException e) {
      b.close();
      throw e;
    }
    b.carried = b.writer.rows();
    return new Extension(b, fresh);
  }

  private static final class Builder implements IndexKind.Builder {
    private final BitmapIndexWriter writer;
    private final boolean created;
    private long carried;
    private long dropped;

    Builder(LanceField field, boolean created, BufferAllocator allocator) {
      this.writer = new BitmapIndexWriter(field.toArrow().getType(), allocator);
      this.created = created;
    }

    @Override
    public void add(FieldVector values, long[] ids, int n) {
      writer.add(values, ids, n);
    }

    @Override
    public List<IndexMetadata.IndexFile> write(ObjectStore store, String directory) throws IOException {
      long size = writer.write(store, directory);
      return List.of(new IndexMetadata.IndexFile(BitmapIndex.FILE_NAME, size));
    }

    @Override
    public void describe(IndexMetadata.Builder entry) {
      if (created) {
        entry.details(new IndexMetadata.Details(IndexType.BITMAP_DETAILS_TYPE_URL, ByteString.EMPTY)).indexVersion(0);
      }
    }

    @Override
    public long rowsAdded() {
      return writer.rows() - carried;
    }

    @Override
    public long rowsDropped() {
      return dropped;
    }

    @Override
    public void close() {
      writer.close();
    }
  }
}
