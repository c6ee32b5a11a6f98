package dev.javelin.table;

import com.google.protobuf.ByteString;
import dev.javelin.table.exceptions.CorruptManifestException;
import dev.javelin.table.proto.TableProtos;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import org.roaringbitmap.RoaringBitmap;

/**
 * The fragments an index covers (its {@code fragment_bitmap}, a portable roaring bitmap), and how
 * operations keep it right, as Lance's transaction.rs does: an index must never claim a fragment
 * whose indexed values it does not hold.
 */
public final class IndexBitmaps {
  private IndexBitmaps() {}

  /** The covered fragment ids (empty when the index records none). */
  public static RoaringBitmap read(TableProtos.IndexMetadata index) {
    RoaringBitmap b = new RoaringBitmap();
    if (index.getFragmentBitmap().isEmpty()) {
      return b;
    }
    try {
      b.deserialize(index.getFragmentBitmap().asReadOnlyByteBuffer().order(ByteOrder.LITTLE_ENDIAN));
    } catch (IOException | RuntimeException e) {
      throw new CorruptManifestException("The fragment bitmap of index '" + index.getName() + "' does not parse", e);
    }
    return b;
  }

  /** A fragment bitmap as Lance stores it: a portable roaring bitmap (run-optimized). */
  public static ByteString write(RoaringBitmap b) {
    b.runOptimize();
    ByteBuffer buf = ByteBuffer.allocate(b.serializedSizeInBytes()).order(ByteOrder.LITTLE_ENDIAN);
    b.serialize(buf);
    return ByteString.copyFrom(buf.array());
  }

  /**
   * Removes {@code updatedFragments} from the bitmap of every index covering one of
   * {@code fieldsModified} (Lance's {@code prune_updated_fields_from_indices}); other indices are
   * returned unchanged. For an Update that rewrote an indexed field in place (rows moved to new
   * fragments are simply not covered).
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

  /** The index with {@code ids} left out of its coverage. */
  static TableProtos.IndexMetadata without(TableProtos.IndexMetadata index, Set<Long> ids) {
    RoaringBitmap b = read(index);
    ids.forEach(id -> b.remove(id.intValue()));
    return index.toBuilder().setFragmentBitmap(write(b)).build();
  }

  /** The first index (by name) whose coverage includes one of {@code ids}, or null. */
  static TableProtos.IndexMetadata covering(List<TableProtos.IndexMetadata> indices, Set<Long> ids) {
    for (TableProtos.IndexMetadata i : indices) {
      RoaringBitmap b = read(i);
      if (ids.stream().anyMatch(id -> b.contains(id.intValue()))) {
        return i;
      }
    }
    return null;
  }
}
