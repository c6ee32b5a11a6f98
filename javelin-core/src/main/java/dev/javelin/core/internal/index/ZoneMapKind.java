package dev.javelin.core.internal.index;

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
    return builder(field, rowsPerZone, true, allocator);
  }

  @Override
  public Extension extend(Dataset ds, List<IndexMetadata> entries, LanceField field, List<Fragment> fresh,
      BufferAllocator allocator) throws IOException {
    ScalarColumns.requireAddresses(ds, "zone map");
    ObjectStore from = ds.manifest().basePaths().indexStore(ds.store(), entries.get(0));
    long size = ZoneMapIndex.open(from, IndexBuild.directory(entries.get(0).uuid()), allocator).rowsPerZone();
    return new Extension(builder(field, size, false, allocator), ScalarColumns.rescanned(ds, entries, fresh));
  }

  // The builder of a new (created) or extended zoned index of this kind.
  private static ZonedBuilder builder(LanceField field, long rowsPerZone, boolean created, BufferAllocator allocator) {
    return new ZonedBuilder(new ZoneMapWriter(field.toArrow().getType(), rowsPerZone, allocator),
        IndexType.ZONEMAP_DETAILS_TYPE_URL, created);
  }
}
