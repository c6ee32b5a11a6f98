package dev.javelin.format.internal.v21;

import dev.javelin.format.exceptions.BadDataException;
import java.nio.ByteBuffer;

/** Decodes one variable-width value of a full-zip page from its stored bytes. */
interface VariablePerValueDecompressor {
  /**
   * Decodes the value stored in bytes [offset, offset + length) of {@code data} and appends it.
   *
   * @throws BadDataException if the bytes are malformed
   */
  void decode(ByteBuffer data, int offset, int length, LeafValues out);
}
