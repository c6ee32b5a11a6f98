package dev.javelin.format.internal.v21;

import dev.javelin.format.internal.encoding.ByteBuilder;
import dev.javelin.format.proto.Encodings21.CompressiveEncoding;
import java.nio.ByteBuffer;

/**
 * Writes the values of a full-zip page one at a time, between the control words. Fixed-width
 * encoders write the same number of bytes for every value; variable ones write a length first.
 */
interface PerValueEncoder {
  CompressiveEncoding encoding();

  boolean isVariable();

  /** Fixed: bits per value (a multiple of 8). Variable: bits per length (32 or 64). */
  int bits();

  /** Fixed: writes the value (any value, nulls included). Variable: the length and bytes. */
  void write(int index, ByteBuilder out);

  /**
   * Values [0, count) written back to back, as one buffer sharing the encoder's storage, when
   * the encoder holds them that way already; null otherwise. Lets a full-zip page with no
   * control words skip copying its values one by one.
   */
  default ByteBuffer contiguous(int count) {
    return null;
  }
}
