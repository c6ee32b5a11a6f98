package dev.javelin.io;

import java.io.EOFException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/** An {@link InputFile} over bytes in memory: for files fetched whole, and for tests that edit bytes. */
public final class ByteArrayInputFile implements InputFile {
  private final byte[] bytes;
  private final String location;

  /** Wraps the array without copying it; the caller must not change it while the file is read. */
  public ByteArrayInputFile(byte[] bytes) {
    this(bytes, "memory");
  }

  public ByteArrayInputFile(byte[] bytes, String location) {
    this.bytes = bytes;
    this.location = location;
  }

  @Override
  public String location() {
    return location;
  }

  @Override
  public long length() {
    return bytes.length;
  }

  @Override
  public ByteBuffer read(long position, int length) throws EOFException {
    if (position < 0 || length < 0 || position > bytes.length - (long) length) {
      throw new EOFException("Read of " + length + " bytes at " + position + " passes the end ("
          + bytes.length + " bytes) of " + location);
    }
    return ByteBuffer.wrap(Arrays.copyOfRange(bytes, (int) position, (int) position + length))
        .order(ByteOrder.LITTLE_ENDIAN);
  }

  @Override
  public void close() {}
}
