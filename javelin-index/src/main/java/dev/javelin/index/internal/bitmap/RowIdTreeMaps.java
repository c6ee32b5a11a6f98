package dev.javelin.index.internal.bitmap;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Map;
import java.util.SortedMap;
import org.roaringbitmap.RoaringBitmap;
import org.roaringbitmap.longlong.Roaring64NavigableMap;

/**
 * Lance's serialized row set ({@code RowIdTreeMap}): a little-endian u32 count of fragments, then
 * per fragment in ascending order its id (u32), the size in bytes of its bitmap (u32; 0 means
 * every row of the fragment) and the bitmap in the portable Roaring format.
 */
public final class RowIdTreeMaps {
  private RowIdTreeMaps() {}

  /** Serializes a set of row addresses ({@code fragment << 32 | offset}). */
  public static byte[] write(Roaring64NavigableMap rows) {
    java.util.TreeMap<Integer, RoaringBitmap> byFragment = new java.util.TreeMap<>(Integer::compareUnsigned);
    rows.forEach(a -> byFragment.computeIfAbsent((int) (a >>> 32), k -> new RoaringBitmap()).add((int) a));
    return write(byFragment);
  }

  /** Serializes one bitmap of row offsets per fragment id (unsigned order, none empty). */
  static byte[] write(SortedMap<Integer, RoaringBitmap> byFragment) {
    int size = 4;
    for (RoaringBitmap b : byFragment.values()) {
      b.runOptimize();
      size += 8 + b.serializedSizeInBytes();
    }
    ByteBuffer out = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
    out.putInt(byFragment.size());
    for (Map.Entry<Integer, RoaringBitmap> e : byFragment.entrySet()) {
      out.putInt(e.getKey());
      out.putInt(e.getValue().serializedSizeInBytes());
      ByteBuffer body = out.slice().order(ByteOrder.LITTLE_ENDIAN);
      e.getValue().serialize(body);
      out.position(out.position() + e.getValue().serializedSizeInBytes());
    }
    return out.array();
  }

  /**
   * The row addresses ({@code fragment << 32 | offset}) of a serialized row set.
   *
   * @throws IOException if the bytes are not one
   */
  public static Roaring64NavigableMap read(byte[] bytes) throws IOException {
    ByteBuffer in = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    Roaring64NavigableMap out = new Roaring64NavigableMap();
    try {
      int count = in.getInt();
      for (int i = 0; i < count; i++) {
        long fragment = Integer.toUnsignedLong(in.getInt());
        int size = in.getInt();
        long base = fragment << 32;
        if (size == 0) {
          out.addRange(base, base + (1L << 32));
          continue;
        }
        ByteBuffer body = in.slice().order(ByteOrder.LITTLE_ENDIAN);
        body.limit(size);
        RoaringBitmap b = new RoaringBitmap();
        b.deserialize(body);
        in.position(in.position() + size);
        b.forEach((int offset) -> out.addLong(base + Integer.toUnsignedLong(offset)));
      }
    } catch (RuntimeException e) {
      throw new IOException("Not a serialized row set (" + bytes.length + " bytes): " + e.getMessage(), e);
    }
    if (in.hasRemaining()) {
      throw new IOException("Not a serialized row set: " + in.remaining() + " bytes left over");
    }
    return out;
  }
}
