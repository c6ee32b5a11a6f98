package dev.javelin.table;

import com.google.protobuf.ByteString;
import dev.javelin.table.proto.TableProtos;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.roaringbitmap.RoaringBitmap;

/**
 * Keeps indices' {@code fragment_bitmap}s right when an operation changes fragments, as Lance's
 * transaction.rs does: an index must never claim a fragment whose indexed values it does not hold.
 * For ManifestBuilder's Update case: a fragment whose indexed field was rewritten in place leaves
 * the bitmaps of indices on that field (rows moved to new fragments are simply not covered).
 */
final class IndexBitmaps {
  private IndexBitmaps() {}

  /**
   * Removes {@code updatedFragments} from the bitmap of every index covering one of
   * {@code fieldsModified} (Lance's {@code prune_updated_fields_from_indices}); other indices are
   * returned unchanged.
   */
  static List<TableProtos.IndexMetadata> pruneUpdated(List<TableProtos.IndexMetadata> indices,
      Collection<Long> updatedFragments, Collection<Integer> fieldsModified) {
    List<TableProtos.IndexMetadata> out = new ArrayList<>();
    for (TableProtos.IndexMetadata i : indices) {
      boolean touched = i.getFieldsList().stream().anyMatch(fieldsModified::contains);
      if (!touched || updatedFragments.isEmpty() || i.getFragmentBitmap().isEmpty()) {
        out.add(i);
        continue;
      }
      RoaringBitmap b = read(i);
      for (long f : updatedFragments) {
        b.remove((int) f);
      }
      out.add(i.toBuilder().setFragmentBitmap(write(b)).build());
    }
    return out;
  }

  static RoaringBitmap read(TableProtos.IndexMetadata i) {
    RoaringBitmap b = new RoaringBitmap();
    try {
      b.deserialize(i.getFragmentBitmap().asReadOnlyByteBuffer().order(ByteOrder.LITTLE_ENDIAN));
    } catch (IOException e) {
      throw new UncheckedIOException("Index '" + i.getName() + "' has a bad fragment_bitmap", e);
    }
    return b;
  }

  static ByteString write(RoaringBitmap b) {
    b.runOptimize();
    ByteBuffer buf = ByteBuffer.allocate(b.serializedSizeInBytes()).order(ByteOrder.LITTLE_ENDIAN);
    b.serialize(buf);
    return ByteString.copyFrom(buf.array());
  }
}
