package dev.javelin.core.internal.index;

import com.google.protobuf.ByteString;
import dev.javelin.core.Dataset;
import dev.javelin.format.schema.LanceField;
import dev.javelin.index.IndexType;
import dev.javelin.index.internal.zonemap.ZoneMapIndex;
import dev.javelin.index.internal.zonemap.ZoneMapWriter;
import dev.javelin.io.ObjectStore;
import dev.javelin.table.Fragment;
import dev.javelin.table.IndexMetadata;
import java.io.IOException;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;

/**
 * Zone maps ({@code zonemap.lance}): min, max and null count per zone of rows. Optimize rebuilds
 * the zones of every fragment the entries still cover plus the fresh ones (a zone map is one pass
 * over one column, and a rebuild drops the deleted rows' values from the bounds).
 */
final class ZoneMapKind implements IndexKind {
  private final long rowsPerZone;

  /** @param rowsPerZone rows per zone, or 0 for Lance's default (8,192) */
  ZoneMapKind(long rowsPerZone) {
    if (rowsPerZone < 0) {
      throw new IllegalArgumentException("rows per zone must be positive: " + rowsPerZone);
    }
    this.rowsPerZone = rowsPerZone == 0 ? ZoneMapIndex.DEFAULT_ROWS_PER_ZONE : rowsPerZone;
  }

  @Override
  public LanceField field(Dataset ds, String column) {
    return ScalarColumns.field(ds, column, "zone map");
  }

  @Override
  public List<String> fileNames() {
    return List.of(ZoneMapIndex.FILE_NAME);
  }

  @Override
  public IndexKind.Builder create(Dataset ds, LanceField field, BufferAllocator allocator) {
    ScalarColumns.requireAddresses(ds, "zone map");
    return new Builder(field, rowsPerZone, true, allocator);
  }

  @Override
  public Extension extend(Dataset ds, List<IndexMetadata> entries, LanceField field, List<Fragment> fresh,
      BufferAllocator allocator) throws IOException {
    ScalarColumns.requireAddresses(ds, "zone map");
    ObjectStore from = ds.manifest().basePaths().indexStore(ds.store(), entries.get(0));
    long size = ZoneMapIndex.open(from, IndexBuild.directory(entries.get(0).uuid()), allocator).rowsPerZone();
    return new Extension(new Builder(field, size, false, allocator), ScalarColumns.rescanned(ds, entries, fresh));
  }

  private static final class Builder implements IndexKind.Builder {
    private final ZoneMapWriter writer;
    private final boolean created;

    Builder(LanceField field, long rowsPerZone, boolean created, BufferAllocator allocator) {
      this.writer = new ZoneMapWriter(field.toArrow().getType(), rowsPerZone, allocator);
      this.created = created;
    }

    @Override
    public void add(FieldVector values, long[] ids, int n) {
      writer.add(values, ids, n);
    }

    @Override
    public List<IndexMetadata.IndexFile> write(ObjectStore store, String directory) throws IOException {
      return List.of(new IndexMetadata.IndexFile(ZoneMapIndex.FILE_NAME, writer.write(store, directory)));
    }

    @Override
    public void describe(IndexMetadata.Builder entry) {
      if (created) {
        entry.details(new IndexMetadata.Details(IndexType.ZONEMAP_DETAILS_TYPE_URL, ByteString.EMPTY)).indexVersion(0);
      }
    }

    @Override
    public long rowsAdded() {
      return writer.rows();
    }

    @Override
    public long rowsDropped() {
      return 0;
    }

    @Override
    public void close() {
      writer.close();
    }
  }
}
