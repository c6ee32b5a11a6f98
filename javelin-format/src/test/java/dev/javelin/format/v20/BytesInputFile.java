package dev.javelin.format.v20;

import dev.javelin.format.io.InputFile;
import java.io.EOFException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/** An in-memory file, for tests that corrupt bytes. */
final class BytesInputFile implements InputFile {
  private final byte[] bytes;

  BytesInputFile(byte[] bytes) {
    this.bytes = bytes;
  }

  @Override
  public String location() {
    return "memory";
  }

  @Override
  public long length() {
    return bytes.length;
  }

  @Override
  public ByteBuffer read(long position, int length) throws EOFException {
    if (position < 0 || length < 0 || position + length > bytes.length) {
      throw new EOFException("Read of " + length + " bytes at " + position + " passes the end of " + bytes.length);
    }
    return ByteBuffer.wrap(Arrays.copyOfRange(bytes, (int) position, (int) position + length))
        .order(ByteOrder.LITTLE_ENDIAN);
  }

  @Override
  public void close() {}
}
