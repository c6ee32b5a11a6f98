package dev.javelin.format.internal.encoding;

import java.io.IOException;
import java.nio.ByteBuffer;

/** Where encoders put page and column buffers as they finish them. */
public interface BufferSink {
  /**
   * Writes the buffer's remaining bytes at the current end of the file, then pads the file to a
   * multiple of 64 bytes.
   *
   * @return the absolute file offset of the buffer's first byte (always 64-aligned)
   */
  long write(ByteBuffer buffer) throws IOException;
}
