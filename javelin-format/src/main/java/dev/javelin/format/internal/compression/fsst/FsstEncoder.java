package dev.javelin.format.internal.compression.fsst;


/**
 * Compresses variable-width values with FSST into the form Lance's {@code Fsst} encoding stores:
 * a {@link FsstSymbolTable} for the page (serialized into the encoding description) and the
 * compressed values with their own offsets (to be stored as {@code Variable} data).
 *
 * <p>{@link #train} builds a table from a deterministic sample of the values; see
 * {@link FsstTrainer}. Lance itself uses FSST only for pages of at least 32 KiB whose longest
 * value is at least 5 bytes, and stores smaller pages with the switch off
 * ({@link FsstSymbolTable#raw()}); that choice is the caller's.
 *
 * <p>Compressed values are at most twice as long as the input (every byte escaped), and each
 * decodes to at most 8 bytes per compressed byte, the bound Lance's decoder relies on.
 * An instance is immutable and may be shared between threads.
 */
public final class FsstEncoder {
  /** Room for output is made once per group of values holding about this many input bytes. */
  private static final int GROUP_BYTES = 1 << 16;
  private final FsstSymbolTable table;
  private final SymbolMap map;

  /** An encoder for a given table (which may be one Lance wrote). */
  public FsstEncoder(FsstSymbolTable table) {
    this.table = table;
    this.map = table.compresses() ? SymbolMap.forTable(table) : null;
  }

  /**
   * Trains a table on values {@code data[offsets[i], offsets[i+1])}, {@code i < numValues}.
   * The table is {@link FsstSymbolTable#raw()} when no symbol would pay off.
   *
   * @throws IllegalArgumentException if the offsets are out of order or out of range
   */
  public static FsstEncoder train(byte[] data, int[] offsets, int numValues) {
    checkOffsets(data, offsets, numValues);
    return new FsstEncoder(FsstTrainer.train(data, offsets, numValues));
  }

  /** Trains a table on the given values. */
  public static FsstEncoder train(BinaryValues values) {
    return train(values.bytes(), values.offsets(), values.count());
  }

  public FsstSymbolTable table() {
    return table;
  }

  /** Compresses the given values. */
  public BinaryValues compress(BinaryValues values) {
    return compress(values.bytes(), values.offsets(), values.count());
  }

  /**
   * Compresses values {@code data[offsets[i], offsets[i+1])}, {@code i < numValues}; with a raw
   * table the values are copied. The result's offsets start at 0.
   *
   * @throws IllegalArgumentException if the offsets are out of order or out of range
   */
  public BinaryValues compress(byte[] data, int[] offsets, int numValues) {
    checkOffsets(data, offsets, numValues);
    long total = (long) offsets[numValues] - offsets[0];
    int expected = (int) Math.min(table.compresses() ? total * 3 / 4 : total, 1 << 26);
    BinaryValues.Builder out = new BinaryValues.Builder(numValues, expected, BinaryValues.Builder.MAX_ARRAY);
    out.ensureValues(numValues);
    if (map == null) {
      for (int i = 0; i < numValues; i++) {
        int start = offsets[i];
        int len = offsets[i + 1] - start;
        int pos = out.offsets[out.count];
        out.ensureBytes(pos, len, len);
        System.arraycopy(data, start, out.bytes, pos, len);
        out.offsets[++out.count] = pos + len;
      }
      return out.build();
    }
    int[] outOffs = out.offsets;
    int i = 0;
    while (i < numValues) {
      // A group: values up to about GROUP_BYTES of input (at least one value), whose worst case
      // (every byte escaped) gets room at once so the loop below checks nothing per value.
      int j = i + 1;
      long limit = (long) offsets[i] + GROUP_BYTES;
      while (j < numValues && offsets[j + 1] <= limit) {
        j++;
      }
      int pos = outOffs[i];
      long worst = 2L * (offsets[j] - offsets[i]);
      if (!out.ensureBytes(pos, 0, worst)) {
        throw out.tooLarge(pos + worst);
      }
      byte[] dst = out.bytes;
      for (int k = i; k < j; k++) {
        pos = compressValue(data, offsets[k], offsets[k + 1], dst, pos);
        outOffs[k + 1] = pos;
      }
      i = j;
    }
    out.count = numValues;
    return out.build();
  }

  private int compressValue(byte[] src, int in, int end, byte[] dst, int o) {
    final SymbolMap m = map;
    while (in < end) {
      int e = m.match(src, in, end);
      // Write the code and, in case it is the escape, the literal byte; keep the latter only
      // for an escape (bit 8). This avoids a branch per code.
      dst[o] = (byte) e;
      dst[o + 1] = src[in];
      o += 1 + ((e >>> 8) & 1);
      in += e >>> 12;
    }
    return o;
  }

  static void checkOffsets(byte[] data, int[] offsets, int numValues) {
    if (numValues < 0 || offsets.length < numValues + 1) {
      throw new IllegalArgumentException("Need " + (numValues + 1) + " offsets for " + numValues
          + " values, got " + offsets.length);
    }
    if (offsets[0] < 0) {
      throw new IllegalArgumentException("Offset 0 is negative: " + offsets[0]);
    }
    for (int i = 0; i < numValues; i++) {
      if (offsets[i + 1] < offsets[i]) {
        throw new IllegalArgumentException("Offsets go backwards at value " + i + ": " + offsets[i] + " then "
            + offsets[i + 1]);
      }
    }
    if (offsets[numValues] > data.length) {
      throw new IllegalArgumentException("Offset " + numValues + " is " + offsets[numValues] + ", past the "
          + data.length + " data bytes");
    }
  }
}
