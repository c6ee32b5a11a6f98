package dev.javelin.core.internal.index;

import com.google.protobuf.ByteString;
import dev.javelin.core.Dataset;
import dev.javelin.format.schema.LanceField;
import dev.javelin.index.IndexType;
import dev.javelin.index.internal.ngram.NGramIndex;
import dev.javelin.index.internal.ngram.NGramWriter;
import dev.javelin.io.ObjectStore;
import dev.javelin.table.Fragment;
import dev.javelin.table.IndexMetadata;
import java.io.IOException;
import java.util.List;
import java.util.function.LongPredicate;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * N-gram indices ({@code ngram_postings.lance}): the rows holding each trigram of a string
 * column. Optimize carries the entries' still-live rows over token by token and adds the fresh
 * fragments' rows.
 */
final class NGramKind implements IndexKind {
  @Override
  public LanceField field(Dataset ds, String column) {
    LanceField f = ds.fields(List.of(column)).get(0);
    ArrowType type = f.toArrow().getType();
    if (!(type instanceof ArrowType.Utf8 || type instanceof ArrowType.LargeUtf8)) {
      throw new IllegalArgumentException("An n-gram index needs a string column; column '" + column + "' is of type "
          + type + ": " + ds.location());
    }
    return f;
  }

  @Override
  public List<String> fileNames() {
    return List.of(NGramIndex.FILE_NAME);
  }

  @Override
  public IndexKind.Builder create(Dataset ds, LanceField field, BufferAllocator allocator) {
    return new Builder(true, allocator);
  }

  @Override
  public Extension extend(Dataset ds, List<IndexMetadata> entries, LanceField field, List<Fragment> fresh,
      BufferAllocator allocator) throws IOException {
    Builder b = new Builder(false, allocator);
    try {
      for (IndexMetadata old : entries) {
        LongPredicate keep = IndexRowIds.liveIn(ds, old.fragmentBitmap(), allocator);
        ObjectStore from = ds.manifest().basePaths().indexStore(ds.store(), old);
        NGramIndex.scan(from, IndexBuild.directory(old.uuid()), allocator,
            (token, rows) -> b.dropped += b.writer.addAll(token, rows, keep));
      }
    } catch (IOException | RuntimeException e) {
      b.close();
      throw e;
    }
    return new Extension(b, fresh);
  }

  private static final class Builder implements IndexKind.Builder {
    private final NGramWriter writer;
    private final boolean created;
    private long dropped;

    Builder(boolean created, BufferAllocator allocator) {
      this.writer = new NGramWriter(allocator);
      this.created = created;
    }

    @Override
    public void add(FieldVector values, long[] ids, int n) {
      writer.add(values, ids, n);
    }

    @Override
    public List<IndexMetadata.IndexFile> write(ObjectStore store, String directory) throws IOException {
      long size = writer.write(store, directory);
      return List.of(new IndexMetadata.IndexFile(NGramIndex.FILE_NAME, size));
    }

    @Override
    public void describe(IndexMetadata.Builder entry) {
      if (created) {
        entry.details(new IndexMetadata.Details(IndexType.NGRAM_DETAILS_TYPE_URL, ByteString.EMPTY)).indexVersion(0);
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
