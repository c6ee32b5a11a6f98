package dev.javelin.format.internal.v21;

import java.nio.ByteOrder;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseLargeVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.ValueVector;

/**
 * Runs of valid and null rows read from an Arrow validity bitmap 64 rows at a time, instead of
 * one {@code isNull} call (with its bounds and reference-count checks) per row: the writer splits
 * every leaf's rows into such runs, and most runs are a whole batch.
 */
final class ValidityRuns {
  private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

  private ValidityRuns() {}

  /**
   * The validity bitmap of {@code v} when it covers rows [0, to) and {@code isNull} means exactly
   * a clear bit in it (plain fixed and variable width vectors); null otherwise, and then the
   * caller asks {@code isNull}.
   */
  static ArrowBuf bitmap(ValueVector v, int to) {
    if (!LITTLE_ENDIAN || !(v instanceof BaseFixedWidthVector || v instanceof BaseVariableWidthVector
        || v instanceof BaseLargeVariableWidthVector)) {
      return null;
    }
    ArrowBuf b = v.getValidityBuffer();
    return b != null && b.capacity() * 8 >= to ? b : null;
  }

  static boolean valid(ArrowBuf bitmap, int i) {
    return (bitmap.getByte(i >>> 3) >> (i & 7) & 1) != 0;
  }

  /** The first row of [i, to) whose validity is not {@code valid}, or {@code to}. */
  static int runEnd(ArrowBuf bitmap, int i, int to, boolean valid) {
    long cap = bitmap.capacity();
    while (i < to) {
      long at = (long) (i >>> 6) << 3;
      long word;
      if (at + 8 <= cap) {
        word = bitmap.getLong(at);
      } else {
        word = 0;
        for (int b = 0; at + b < cap && b < 8; b++) {
          word |= (bitmap.getByte(at + b) & 0xFFL) << (8 * b);
        }
      }
      int bit = i & 63;
      // Ones where the row's validity differs from the run's, from row i on.
      long differs = (valid ? ~word : word) & (-1L << bit);
      if (differs != 0) {
        return Math.min(to, (i & ~63) + Long.numberOfTrailingZeros(differs));
      }
      i = (i & ~63) + 64;
    }
    return to;
  }
}
