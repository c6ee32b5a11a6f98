package dev.javelin.format.internal.v21;

import java.nio.ByteBuffer;

/** Decodes fixed-width values of a full-zip page, once unzipped from the control words. */
interface FixedPerValueDecompressor {
  /** Bytes each value takes in the page. */
  int bytesPerValue();

  /** Decodes {@code n} values stored back to back from {@code offset} and appends them. */
  void decode(ByteBuffer data, int offset, int n, LeafValues out);
}
