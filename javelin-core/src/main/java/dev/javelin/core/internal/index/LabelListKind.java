package dev.javelin.core.internal.index;

import com.google.protobuf.ByteString;
import dev.javelin.core.Dataset;
import dev.javelin.format.schema.LanceField;
import dev.javelin.index.IndexType;
import dev.javelin.index.internal.bitmap.BitmapIndex;
import dev.javelin.index.internal.labellist.LabelListIndex;
import dev.javelin.index.internal.labellist.LabelListWriter;
import dev.javelin.index.internal.scalar.ScalarValues;
import dev.javelin.io.ObjectStore;
import dev.javelin.table.Fragment;
import dev.javelin.table.IndexMetadata;
import java.io.IOException;
import java.util.List;
import java.util.function.LongPredicate;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Label list indices (a bitmap over the elements of a list column, in
 * {@code bitmap_page_lookup.lance}). Optimize carries the entries' still-live rows over label by
 * label and adds the fresh fragments' rows.
 */
final class LabelListKind implements IndexKind {
  @Override
  public LanceField field(Dataset ds, String column) {
    LanceField f = ds.fields(List.of(column)).get(0);
    Field arrow = f.toArrow();
    boolean list = arrow.getType() instanceof ArrowType.List || arrow.getType() instanceof ArrowType.LargeList;
    if (!list || arrow.getChildren().size() != 1 || !ScalarValues.supports(arrow.getChildren().get(0).getType())) {
      throw new IllegalArgumentException("A label list index needs a list column of integers, floats, strings,"
          + " binaries, booleans, dates or timestamps; column '" + column + "' is of type "
          + (list ? "list<" + arrow.getChildren().get(0).getType() + ">" : arrow.getType()) + ": " + ds.location());
    }
    return f;
  }

  @Override
  public List<String> fileNames() {
    return List.of(BitmapIndex.FILE_NAME);
  }

  @Override
  public IndexKind.Builder create(Dataset ds, LanceField field, BufferAllocator allocator) {
    return new Builder(field, true, LabelListWriter.INDEX_VERSION, allocator);
  }

  @Override
  public Extension extend(Dataset ds, List<IndexMetadata> entries, LanceField field, List<Fragment> fresh,
      BufferAllocator allocator) throws IOException {
    // The extended index keeps its entry's version, and so its file's layout.
    Builder b = new Builder(field, false, entries.get(0).indexVersion().orElse(0), allocator);
    try {
      for (IndexMetadata old : entries) {
        LongPredicate keep = IndexRowIds.liveIn(ds, old.fragmentBitmap(), allocator);
        ObjectStore from = ds.manifest().basePaths().indexStore(ds.store(), old);
        String directory = IndexBuild.directory(old.uuid());
        BitmapIndex.scan(from, directory, allocator,
            (keys, i, rows) -> b.dropped += b.writer.addAll(keys, i, rows, keep));
        b.writer.addNullLists(LabelListIndex.nullLists(from, directory, allocator), keep);
      }
    } catch (IOException | RuntimeException e) {
      b.close();
      throw e;
    }
    return new Extension(b, fresh);
  }

  private static final class Builder implements IndexKind.Builder {
    private final LabelListWriter writer;
    private final boolean created;
    private long dropped;

    Builder(LanceField field, boolean created, int indexVersion, BufferAllocator allocator) {
      this.writer = new LabelListWriter(field.toArrow().getChildren().get(0).getType(), indexVersion, allocator);
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
        entry.details(new IndexMetadata.Details(IndexType.LABEL_LIST_DETAILS_TYPE_URL, ByteString.EMPTY))
            .indexVersion(LabelListWriter.INDEX_VERSION);
      }
    }

    @Override
    public long rowsAdded() {
      return writer.rows();
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
