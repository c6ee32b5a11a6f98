package dev.javelin.table.rowids;

import com.google.protobuf.ByteString;
import dev.javelin.table.proto.RowIdProtos;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * u64 values as Lance stores them in an {@code EncodedU64Array}: little-endian u16 or u32 offsets
 * from a base, or plain u64s. Decoded to absolute values; the width and base are kept so that a
 * decoded array encodes back to the same bytes.
 */
final class EncodedU64Array {
  enum Width { U16, U32, U64 }

  private final Width width;
  private final long base;
  private final long[] values;

  private EncodedU64Array(Width width, long base, long[] values) {
    this.width = width;
    this.base = base;
    this.values = values;
  }

  /** The narrowest form Lance picks: offsets from the minimum when max - min fits in 16 or 32 bits. */
  static EncodedU64Array of(long[] values) {
    if (values.length == 0) {
      return new EncodedU64Array(Width.U64, 0, values);
    }
    long min = values[0];
    long max = values[0];
    for (long v : values) {
      if (Long.compareUnsigned(v, min) < 0) {
        min = v;
      }
      if (Long.compareUnsigned(v, max) > 0) {
        max = v;
      }
    }
    long range = max - min;
    if (Long.compareUnsigned(range, 0xFFFFL) <= 0) {
      return new EncodedU64Array(Width.U16, min, values);
    }
    if (Long.compareUnsigned(range, 0xFFFF_FFFFL) <= 0) {
      return new EncodedU64Array(Width.U32, min, values);
    }
    return new EncodedU64Array(Width.U64, 0, values);
  }

  static EncodedU64Array fromProto(RowIdProtos.EncodedU64Array p) {
    switch (p.getArrayCase()) {
      case U16_ARRAY: {
        long base = p.getU16Array().getBase();
        ByteBuffer b = littleEndian(p.getU16Array().getOffsets(), 2, "u16 offsets");
        long[] out = new long[b.remaining() / 2];
        for (int i = 0; i < out.length; i++) {
          out[i] = base + Short.toUnsignedLong(b.getShort());
        }
        return new EncodedU64Array(Width.U16, base, out);
      }
      case U32_ARRAY: {
        long base = p.getU32Array().getBase();
        ByteBuffer b = littleEndian(p.getU32Array().getOffsets(), 4, "u32 offsets");
        long[] out = new long[b.remaining() / 4];
        for (int i = 0; i < out.length; i++) {
          out[i] = base + Integer.toUnsignedLong(b.getInt());
        }
        return new EncodedU64Array(Width.U32, base, out);
      }
      case U64_ARRAY: {
        ByteBuffer b = littleEndian(p.getU64Array().getValues(), 8, "u64 values");
        long[] out = new long[b.remaining() / 8];
        for (int i = 0; i < out.length; i++) {
          out[i] = b.getLong();
        }
        return new EncodedU64Array(Width.U64, 0, out);
      }
      default:
        throw new IllegalArgumentException("EncodedU64Array has no array");
    }
  }

  private static ByteBuffer littleEndian(ByteString bytes, int width, String what) {
    if (bytes.size() % width != 0) {
      throw new IllegalArgumentException("EncodedU64Array " + what + " take " + bytes.size()
          + " bytes, not a multiple of " + width);
    }
    return bytes.asReadOnlyByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
  }

  RowIdProtos.EncodedU64Array toProto() {
    RowIdProtos.EncodedU64Array.Builder p = RowIdProtos.EncodedU64Array.newBuilder();
    switch (width) {
      case U16: {
        ByteBuffer b = ByteBuffer.allocate(values.length * 2).order(ByteOrder.LITTLE_ENDIAN);
        for (long v : values) {
          b.putShort((short) (v - base));
        }
        return p.setU16Array(RowIdProtos.EncodedU64Array.U16Array.newBuilder()
            .setBase(base).setOffsets(ByteString.copyFrom(b.array()))).build();
      }
      case U32: {
        ByteBuffer b = ByteBuffer.allocate(values.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (long v : values) {
          b.putInt((int) (v - base));
        }
        return p.setU32Array(RowIdProtos.EncodedU64Array.U32Array.newBuilder()
            .setBase(base).setOffsets(ByteString.copyFrom(b.array()))).build();
      }
      default: {
        ByteBuffer b = ByteBuffer.allocate(values.length * 8).order(ByteOrder.LITTLE_ENDIAN);
        for (long v : values) {
          b.putLong(v);
        }
        return p.setU64Array(RowIdProtos.EncodedU64Array.U64Array.newBuilder()
            .setValues(ByteString.copyFrom(b.array()))).build();
      }
    }
  }

  Width width() {
    return width;
  }

  /** The absolute values; not copied, callers do not modify them. */
  long[] values() {
    return values;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof EncodedU64Array)) {
      return false;
    }
    EncodedU64Array a = (EncodedU64Array) o;
    return a.width == width && a.base == base && Arrays.equals(a.values, values);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(values) * 31 + width.hashCode();
  }
}
