package dev.javelin.format.v21;

import java.nio.ByteBuffer;

/** Decodes one variable-width value of a full-zip page from its stored bytes. */
interface VariablePerValueDecompressor {
  void decode(ByteBuffer data, int offset, int length, LeafValues out);
}
