package dev.javelin.table;

import com.google.protobuf.ByteString;
import dev.javelin.table.proto.TableProtos;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Set;
import org.roaringbitmap.RoaringBitmap;

/** The fragments an index covers: its {@code fragment_bitmap}, a portable roaring bitmap. */
final class IndexBitmaps {
  private IndexBitmaps() {}

  /** The covered fragment ids (empty when the index records none). */
  static RoaringBitmap read(TableProtos.IndexMetadata index) {
    RoaringBitmap b = new RoaringBitmap();
    if (index.getFragmentBitmap().isEmpty()) {
      return b;
    }
    try {
      b.deserialize(ByteBuffer.wrap(index.getFragmentBitmap().toByteArray()));
    } catch (IOException | RuntimeException e) {
      throw new CorruptManifestException("The fragment bitmap of index '" + index.getName() + "' does not parse", e);
    }
    return b;
  }

  /** The index with {@code ids} left out of its coverage. */
  static TableProtos.IndexMetadata without(TableProtos.IndexMetadata index, Set<Long> ids) {
    RoaringBitmap b = read(index);
    ids.forEach(id -> b.remove(id.intValue()));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (DataOutputStream d = new DataOutputStream(out)) {
      b.serialize(d);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return index.toBuilder().setFragmentBitmap(ByteString.copyFrom(out.toByteArray())).build();
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
