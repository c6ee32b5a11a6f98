package dev.javelin.compat;

import dev.javelin.format.io.InputFile;
import java.io.EOFException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/** A file held in memory, for tests that damage bytes of files lance-core wrote. */
final class DecMemFile implements InputFile {
  private final byte[] bytes;

  DecMemFile(byte[] bytes) {
    this.bytes = bytes;
  }

  @Override
  public String location() {
    return "mem";
  }

  @Override
  public long length() {
    return bytes.length;
  }

  @Override
  public ByteBuffer read(long position, int length) throws EOFException {
    if (position < 0 || length < 0 || position + length > bytes.length) {
      throw new EOFException("read of " + length + " bytes at " + position + " passes the end");
    }
    return ByteBuffer.wrap(Arrays.copyOfRange(bytes, (int) position, (int) position + length))
        .order(ByteOrder.LITTLE_ENDIAN);
  }

  @Override
  public void close() {}
}
