package dev.javelin.core.internal.index;

import com.google.protobuf.ByteString;
import dev.javelin.index.internal.scalar.ZonedIndexWriter;
import dev.javelin.io.ObjectStore;
import dev.javelin.table.IndexMetadata;
import java.io.IOException;
import java.util.List;
import org.apache.arrow.vector.FieldVector;

/**
 * Builds a zoned index (zone map, bloom filter) with its writer: one pass over the column, one
 * file. A new index records its details type; an extended one keeps its entry's.
 */
final class ZonedBuilder implements IndexKind.Builder {
  private final ZonedIndexWriter writer;
  private final String detailsTypeUrl;
  private final boolean created;

  /** @param created whether this is a new index (its details are then recorded) */
  ZonedBuilder(ZonedIndexWriter writer, String detailsTypeUrl, boolean created) {
    this.writer = writer;
    this.detailsTypeUrl = detailsTypeUrl;
    this.created = created;
  }

  @Override
  public void add(FieldVector values, long[] ids, int n) {
    writer.add(values, ids, n);
  }

  @Override
  public List<IndexMetadata.IndexFile> write(ObjectStore store, String directory) throws IOException {
    return List.of(new IndexMetadata.IndexFile(writer.fileName(), writer.write(store, directory)));
  }

  @Override
  public void describe(IndexMetadata.Builder entry) {
    if (created) {
      entry.details(new IndexMetadata.Details(detailsTypeUrl, ByteString.EMPTY)).indexVersion(0);
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
