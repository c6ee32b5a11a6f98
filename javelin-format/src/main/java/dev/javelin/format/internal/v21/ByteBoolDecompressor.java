package dev.javelin.format.internal.v21;

import dev.javelin.format.exceptions.BadDataException;
import java.nio.ByteBuffer;

/**
 * Reads booleans a full-zip page stores one byte each ({@code Flat} with 8 bits on a boolean
 * leaf). Full-zip values must be whole bytes, so Lance widens each boolean to a byte when a
 * boolean column falls back to full-zip (sparse lists of booleans whose rep/def levels do not fit
 * a mini-block chunk); any non-zero byte is true.
 */
final class ByteBoolDecompressor implements FixedPerValueDecompressor {
  @Override
  public int bytesPerValue() {
    return 1;
  }

  @Override
  public void decode(ByteBuffer data, int offset, int n, LeafValues out) {
    if ((long) offset + n > data.limit()) {
      throw new BadDataException(n + " one-byte booleans from byte " + offset + " pass the end of a "
          + data.limit() + "-byte buffer");
    }
    // Pack into the bitmap FixedValues holds for booleans.
    byte[] packed = new byte[(n + 7) >>> 3];
    for (int i = 0; i < n; i++) {
      if (data.get(offset + i) != 0) {
        packed[i >>> 3] |= (byte) (1 << (i & 7));
      }
    }
    ((FixedValues) out).appendFrom(ByteBuffer.wrap(packed), 0, n);
  }
}
