package dev.javelin.format.internal.v21;

import dev.javelin.format.internal.compression.fsst.BinaryValues;
import dev.javelin.format.internal.compression.fsst.FsstEncoder;
import dev.javelin.format.internal.compression.fsst.FsstSymbolTable;

/**
 * FSST for a page of variable-width values, used as lance-core 7.0.0 uses it: only when the page
 * holds at least 32 KiB (bytes plus offsets) and its longest value is at least 5 bytes. One symbol
 * table per page, trained on the page; the compressed values are then stored as {@code Variable}
 * (in mini-block chunks or one by one in full-zip) under an {@code Fsst} encoding that carries the
 * table.
 */
final class FsstCompression {
  static final long MIN_PAGE_BYTES = 32 * 1024;
  static final int MIN_MAX_LENGTH = 5;

  private FsstCompression() {}

  /** Whether Lance would use FSST for a page with these statistics. */
  static boolean applies(VarValues values, int maxLength) {
    long size = values.dataSize() + (long) (values.count() + 1) * values.offsetBytes;
    return maxLength >= MIN_MAX_LENGTH && size >= MIN_PAGE_BYTES;
  }

  /**
   * The page's values FSST-compressed, or null when the table would not pay for itself (the
   * compressed values and the 2312-byte table are no smaller than the values).
   */
  static VariableEncoder compress(VarValues values) {
    int n = values.count();
    int[] offsets = new int[n + 1];
    for (int i = 1; i <= n; i++) {
      offsets[i] = (int) values.end(i - 1);
    }
    FsstEncoder encoder = FsstEncoder.train(values.data(), offsets, n);
    if (!encoder.table().compresses()) {
      return null;
    }
    BinaryValues compressed = encoder.compress(values.data(), offsets, n);
    if (compressed.dataLength() + FsstSymbolTable.SERIALIZED_SIZE >= values.dataSize()) {
      return null;
    }
    int w = values.offsetBytes;
    return new VariableEncoder(compressed, w,
        CompressionProtos.fsst(encoder.table().serialize(), Protos21.variable(w * 8)));
  }
}
