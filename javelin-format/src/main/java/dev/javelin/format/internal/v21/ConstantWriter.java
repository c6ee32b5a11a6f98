package dev.javelin.format.internal.v21;

import com.google.protobuf.ByteString;
import dev.javelin.format.internal.encoding.ByteBuilder;
import dev.javelin.format.proto.Encodings21.AllNullLayout;
import dev.javelin.format.proto.Encodings21.PageLayout;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Writes a format 2.2 constant page (the all-null layout with a value), as lance-core 7.0.0
 * writes a page outside lists whose valid items all hold one value: a fixed-width value of at
 * most 32 bytes (a boolean as one byte, 0 or 1) inline in the layout; other values in a buffer
 * holding a one-value Arrow array ({@code u32 buffer count, u32 size of each, the buffers}: the
 * value's bytes, or its two offsets then its bytes). A page with nulls adds two level buffers,
 * an empty repetition buffer and the definition levels as plain u16 values. See
 * {@link ConstantPageDecoder} for the reader.
 */
final class ConstantWriter {
  private static final int MAX_INLINE_BYTES = 32;

  private ConstantWriter() {}

  /**
   * The constant page of these entries, or null when they are under a list or their valid values
   * differ. {@code def} holds the page's definition levels, or is null without nulls.
   */
  static EncodedPage tryWrite(LeafEntries page, RepDefLayers layers, short[] def) {
    int n = page.values.count();
    if (n == 0 || page.rep != null || n != page.size()) {
      return null;
    }
    int first = 0;
    while (first < n && page.code(first) != 0) {
      first++;
    }
    if (first == n) {
      return null;
    }
    LeafType t = page.path.type;
    AllNullLayout.Builder layout = AllNullLayout.newBuilder().addAllLayers(layers.asList());
    List<ByteBuffer> buffers = new ArrayList<>();
    if (t.kind == LeafType.Kind.FIXED) {
      FixedValues v = (FixedValues) page.values;
      byte[] a = v.array();
      byte[] value;
      if (v.bits == 1) {
        boolean bit = bit(a, first);
        for (int i = first + 1; i < n; i++) {
          if (page.code(i) == 0 && bit(a, i) != bit) {
            return null;
          }
        }
        value = new byte[] {(byte) (bit ? 1 : 0)};
      } else {
        int w = v.bits / 8;
        for (int i = first + 1; i < n; i++) {
          if (page.code(i) == 0 && !Arrays.equals(a, i * w, i * w + w, a, first * w, first * w + w)) {
            return null;
          }
        }
        value = Arrays.copyOfRange(a, first * w, first * w + w);
      }
      if (value.length <= MAX_INLINE_BYTES) {
        layout.setInlineValue(ByteString.copyFrom(value));
      } else {
        ByteBuilder b = new ByteBuilder(8 + value.length);
        b.appendInt(1);
        b.appendInt(value.length);
        b.append(value, 0, value.length);
        buffers.add(b.toBuffer());
      }
    } else if (t.kind == LeafType.Kind.VARIABLE) {
      VarValues v = (VarValues) page.values;
      byte[] d = v.data();
      int s0 = (int) v.start(first);
      int len = v.length(first);
      for (int i = first + 1; i < n; i++) {
        int s = (int) v.start(i);
        if (page.code(i) == 0 && (v.length(i) != len || !Arrays.equals(d, s, s + len, d, s0, s0 + len))) {
          return null;
        }
      }
      int ob = v.offsetBytes;
      ByteBuilder b = new ByteBuilder(12 + 2 * ob + len);
      b.appendInt(2);
      b.appendInt(2 * ob);
      b.appendInt(len);
      if (ob == 8) {
        b.appendLong(0);
        b.appendLong(len);
      } else {
        b.appendInt(0);
        b.appendInt(len);
      }
      b.append(d, s0, len);
      buffers.add(b.toBuffer());
    } else {
      return null;
    }
    if (def != null) {
      ByteBuilder levels = new ByteBuilder(2 * def.length);
      for (short l : def) {
        levels.appendShort(l);
      }
      buffers.add(ByteBuffer.allocate(0));
      buffers.add(levels.toBuffer());
    }
    return new EncodedPage(buffers, PageLayout.newBuilder().setAllNullLayout(layout).build());
  }

  private static boolean bit(byte[] bits, int i) {
    return (bits[i >>> 3] & (1 << (i & 7))) != 0;
  }
}
