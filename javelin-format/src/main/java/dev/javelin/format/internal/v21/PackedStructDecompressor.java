package dev.javelin.format.internal.v21;

import dev.javelin.format.exceptions.BadDataException;
import java.nio.ByteBuffer;

/**
 * Reads {@code PackedStruct}: a struct of fixed-width children stored row by row as one
 * fixed-width value (the children's bytes back to back), itself encoded by an inner encoding
 * (Flat in what Lance writes). The rows are split into the children, or kept whole when the
 * target is a plain fixed-width container (blob descriptions).
 */
final class PackedStructDecompressor implements MiniBlockDecompressor {
  private final int[] childBytes;
  private final int rowBits;
  private final MiniBlockDecompressor rows;

  PackedStructDecompressor(int[] childBits, MiniBlockDecompressor rows) {
    this.childBytes = new int[childBits.length];
    int total = 0;
    for (int i = 0; i < childBits.length; i++) {
      childBytes[i] = childBits[i] / 8;
      total += childBits[i];
    }
    this.rowBits = total;
    this.rows = rows;
  }

  @Override
  public int numBuffers() {
    return rows.numBuffers();
  }

  @Override
  public void decode(ByteBuffer[] buffers, int numValues, LeafValues out) {
    if (out instanceof FixedValues) {
      rows.decode(buffers, numValues, out);
      return;
    }
    FixedValues whole = new FixedValues(rowBits);
    rows.decode(buffers, numValues, whole);
    if (whole.count() != numValues) {
      throw new BadDataException("packed struct rows decoded " + whole.count() + " of " + numValues);
    }
    PackedValues p = (PackedValues) out;
    ByteBuffer b = ByteBuffer.wrap(whole.array());
    int rowBytes = rowBits / 8;
    int off = 0;
    for (int c = 0; c < childBytes.length; c++) {
      FixedValues child = (FixedValues) p.children[c];
      int w = childBytes[c];
      byte[] col = new byte[Math.multiplyExact(numValues, w)];
      for (int r = 0; r < numValues; r++) {
        b.get(r * rowBytes + off, col, r * w, w);
      }
      child.appendFrom(ByteBuffer.wrap(col), 0, numValues);
      off += w;
    }
    p.addCount(numValues);
  }
}
