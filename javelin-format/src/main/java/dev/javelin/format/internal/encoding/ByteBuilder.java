package dev.javelin.format.internal.encoding;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.apache.arrow.memory.ArrowBuf;

/**
 * A growable little-endian byte array that the encoders of both file versions fill with page
 * data. {@link #reset} keeps the array: the next page of a column needs as much, and regrowing
 * tens of megabytes by doubling for every page costs more than encoding it.
 */
public final class ByteBuilder {
  private byte[] data;
  private int size;

  public ByteBuilder() {
    this(64);
  }

  public ByteBuilder(int capacity) {
    this.data = new byte[Math.max(16, capacity)];
  }

  public int size() {
    return size;
  }

  /** The backing array; only the first {@link #size()} bytes are meaningful. */
  public byte[] array() {
    return data;
  }

  /** Empties the builder, keeping its array for the next use. */
  public void reset() {
    size = 0;
  }

  /**
   * Takes {@code src} as the contents when the builder is empty (no copy); otherwise appends it.
   * The caller must not touch {@code src} afterwards.
   */
  public void appendOwned(byte[] src, int len) {
    if (size == 0 && src.length >= 16) {
      data = src;
      size = len;
    } else {
      append(src, 0, len);
    }
  }

  /** Grows the contents by {@code len} bytes for the caller to fill; returns where they start. */
  public int extend(int len) {
    ensureRoom(len);
    int at = size;
    size += len;
    return at;
  }

  /**
   * Sets the size after the caller wrote into the array directly (having made room with
   * {@link #ensureRoom}); {@code size} must not pass the array.
   */
  public void setSize(int size) {
    if (size < 0 || size > data.length) {
      throw new IllegalArgumentException("Size " + size + " outside an array of " + data.length);
    }
    this.size = size;
  }

  public void ensureRoom(long extra) {
    long need = size + extra;
    if (need > data.length) {
      if (need > Integer.MAX_VALUE - 16) {
        throw new IllegalArgumentException("A page buffer cannot exceed 2 GiB; lower maxPageBytes");
      }
      long grown = Math.max(need, Math.min(Integer.MAX_VALUE - 16L, (long) data.length * 2));
      data = Arrays.copyOf(data, (int) grown);
    }
  }

  public void append(byte b) {
    ensureRoom(1);
    data[size++] = b;
  }

  public void append(byte[] src, int off, int len) {
    ensureRoom(len);
    System.arraycopy(src, off, data, size, len);
    size += len;
  }

  public void append(ByteBuffer src, int off, int len) {
    ensureRoom(len);
    src.get(off, data, size, len);
    size += len;
  }

  public void append(ArrowBuf src, long off, long len) {
    ensureRoom(len);
    src.getBytes(off, data, size, (int) len);
    size += (int) len;
  }

  public void appendZeros(int len) {
    ensureRoom(len);
    Arrays.fill(data, size, size + len, (byte) 0);
    size += len;
  }

  public void fill(byte b, int len) {
    ensureRoom(len);
    Arrays.fill(data, size, size + len, b);
    size += len;
  }

  public void appendShort(int v) {
    ensureRoom(2);
    data[size++] = (byte) v;
    data[size++] = (byte) (v >>> 8);
  }

  public void appendInt(int v) {
    ensureRoom(4);
    for (int i = 0; i < 4; i++) {
      data[size++] = (byte) (v >>> (8 * i));
    }
  }

  public void appendLong(long v) {
    ensureRoom(8);
    for (int i = 0; i < 8; i++) {
      data[size++] = (byte) (v >>> (8 * i));
    }
  }

  /** Appends the low {@code width} bytes (1, 2, 4 or 8) of {@code v}. */
  public void appendUnsigned(long v, int width) {
    ensureRoom(width);
    for (int i = 0; i < width; i++) {
      data[size++] = (byte) (v >>> (8 * i));
    }
  }

  /** Pads with {@code fill} to a multiple of {@code alignment}. */
  public void padTo(int alignment, byte fill) {
    int rem = size % alignment;
    if (rem != 0) {
      fill(fill, alignment - rem);
    }
  }

  /**
   * A little-endian buffer over the contents, sharing the array (no copy: pages are tens of
   * megabytes); the builder must not be changed while the buffer is in use.
   */
  public ByteBuffer toBuffer() {
    return ByteBuffer.wrap(data, 0, size).slice().order(ByteOrder.LITTLE_ENDIAN);
  }
}
