package dev.javelin.table;

import com.google.protobuf.ByteString;
import dev.javelin.table.exceptions.CorruptManifestException;
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
final class IndexBitmaps {
  private IndexBitmaps() {}

  /** The fragment ids stored bitmap {@code bytes} of index {@code name} holds (empty bytes: none). */
  static RoaringBitmap parse(ByteString bytes, String name) {
    RoaringBitmap b = new RoaringBitmap();
    if (bytes.isEmpty()) {
      return b;
    }
    try {
      b.deserialize(bytes.asReadOnlyByteBuffer().order(ByteOrder.LITTLE_ENDIAN));
    } catch (IOException | RuntimeException e) {
      throw new CorruptManifestException("The fragment bitmap of index '" + name + "' does not parse", e);
    }
    return b;
  }

  /** A fragment bitmap as Lance stores it: a portable roaring bitmap (run-optimized). */
  static ByteString write(RoaringBitmap b) {
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
  static List<IndexMetadata> pruneUpdated(List<IndexMetadata> indices, Collection<Long> updatedFragments,
      Collection<Integer> fieldsModified) {
    List<IndexMetadata> out = new ArrayList<>();
    for (IndexMetadata i : indices) {
      boolean touched = i.fields().stream().anyMatch(fieldsModified::contains);
      if (!touched || updatedFragments.isEmpty() || i.lacksFragmentBitmap()) {
        out.add(i);
        continue;
      }
      RoaringBitmap b = i.fragmentBitmap();
      for (long f : updatedFragments) {
        b.remove((int) f);
      }
      out.add(i.toBuilder().fragmentBitmap(b).build());
    }
    return out;
  }

  /** The index with {@code ids} left out of its coverage. */
  static IndexMetadata without(IndexMetadata index, Set<Long> ids) {
    RoaringBitmap b = index.fragmentBitmap();
    ids.forEach(id -> b.remove(id.intValue()));
    return index.toBuilder().fragmentBitmap(b).build();
  }

  /** The first index (by name) whose coverage includes one of {@code ids}, or null. */
  static IndexMetadata covering(List<IndexMetadata> indices, Set<Long> ids) {
    for (IndexMetadata i : indices) {
      RoaringBitmap b = i.fragmentBitmap();
      if (ids.stream().anyMatch(id -> b.contains(id.intValue()))) {
        return i;
      }
    }
    return null;
  }
}
