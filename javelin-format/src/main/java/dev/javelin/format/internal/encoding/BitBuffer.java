package dev.javelin.format.internal.encoding;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.apache.arrow.memory.ArrowBuf;

/**
 * A growable bitmap, least significant bit first (Arrow and Lance bit order), that the encoders
 * and decoders of both file versions fill with validity and boolean bits. {@link #reset} keeps
 * the array, as {@link ByteBuilder}'s does.
 */
public final class BitBuffer {
  private byte[] data = new byte[16];
  private long size;

  public long size() {
    return size;
  }

  /** The backing bytes; bits past {@link #size()} are zero. */
  public byte[] array() {
    return data;
  }

  /** The number of set bits. */
  public long ones() {
    long n = 0;
    for (int i = 0, end = byteSize(); i < end; i++) {
      n += Integer.bitCount(data[i] & 0xFF);
    }
    return n;
  }

  public int byteSize() {
    return (int) ((size + 7) >>> 3);
  }

  /** Empties the bitmap, keeping (and zeroing) its array for the next use. */
  public void reset() {
    Arrays.fill(data, 0, byteSize(), (byte) 0);
    size = 0;
  }

  private void ensureBits(long bits) {
    long bytes = (bits + 7) >>> 3;
    if (bytes > data.length) {
      if (bytes > Integer.MAX_VALUE - 16) {
        throw new IllegalArgumentException("A page bitmap cannot exceed 2 GiB; lower maxPageBytes");
      }
      data = Arrays.copyOf(data, (int) Math.max(bytes, Math.min(Integer.MAX_VALUE - 16L, data.length * 2L)));
    }
  }

  public boolean get(long i) {
    return (data[(int) (i >>> 3)] & (1 << (i & 7))) != 0;
  }

  public void add(boolean bit) {
    ensureBits(size + 1);
    if (bit) {
      data[(int) (size >>> 3)] |= (byte) (1 << (size & 7));
    }
    size++;
  }

  public void addRepeated(boolean bit, long n) {
    ensureBits(size + n);
    if (bit) {
      long p = size;
      long end = size + n;
      while (p < end && (p & 7) != 0) {
        data[(int) (p >>> 3)] |= (byte) (1 << (p & 7));
        p++;
      }
      if (end - p >= 8) {
        int from = (int) (p >>> 3);
        int to = (int) (end >>> 3);
        Arrays.fill(data, from, to, (byte) 0xFF);
        p = (long) to << 3;
      }
      while (p < end) {
        data[(int) (p >>> 3)] |= (byte) (1 << (p & 7));
        p++;
      }
    }
    size += n;
  }

  /** Appends {@code n} bits of {@code src} starting at bit {@code from}. */
  public void addFrom(byte[] src, long from, long n) {
    ensureBits(size + n);
    if ((from & 7) == 0 && (size & 7) == 0) {
      int bytes = (int) (n >>> 3);
      System.arraycopy(src, (int) (from >>> 3), data, (int) (size >>> 3), bytes);
      for (long i = (long) bytes * 8; i < n; i++) {
        setAt(size + i, (src[(int) ((from + i) >>> 3)] & (1 << ((from + i) & 7))) != 0);
      }
    } else {
      for (long i = 0; i < n; i++) {
        setAt(size + i, (src[(int) ((from + i) >>> 3)] & (1 << ((from + i) & 7))) != 0);
      }
    }
    size += n;
  }

  public void addFrom(ByteBuffer src, int byteOffset, long from, long n) {
    ensureBits(size + n);
    long i = 0;
    if ((from & 7) == 0 && (size & 7) == 0) {
      // Byte-aligned on both sides: whole bytes in one copy, the tail bit by bit.
      int bytes = (int) (n >>> 3);
      src.get(byteOffset + (int) (from >>> 3), data, (int) (size >>> 3), bytes);
      i = (long) bytes * 8;
    }
    for (; i < n; i++) {
      long b = from + i;
      setAt(size + i, (src.get(byteOffset + (int) (b >>> 3)) & (1 << (b & 7))) != 0);
    }
    size += n;
  }

  public void addFrom(ArrowBuf src, long from, long n) {
    ensureBits(size + n);
    long i = 0;
    if ((from & 7) == 0 && (size & 7) == 0) {
      // Byte-aligned on both sides: whole bytes in one copy, the tail bit by bit.
      int bytes = (int) (n >>> 3);
      src.getBytes(from >>> 3, data, (int) (size >>> 3), bytes);
      i = (long) bytes * 8;
    }
    for (; i < n; i++) {
      long b = from + i;
      setAt(size + i, (src.getByte(b >>> 3) & (1 << (b & 7))) != 0);
    }
    size += n;
  }

  /** Whether bits [from, from + n) of {@code src} are all set; reads whole words where it can. */
  public static boolean allSet(ArrowBuf src, long from, long n) {
    long i = from;
    long end = from + n;
    for (; i < end && (i & 7) != 0; i++) {
      if ((src.getByte(i >>> 3) & (1 << (i & 7))) == 0) {
        return false;
      }
    }
    for (; end - i >= 64; i += 64) {
      if (src.getLong(i >>> 3) != -1L) {
        return false;
      }
    }
    for (; end - i >= 8; i += 8) {
      if (src.getByte(i >>> 3) != (byte) 0xFF) {
        return false;
      }
    }
    for (; i < end; i++) {
      if ((src.getByte(i >>> 3) & (1 << (i & 7))) == 0) {
        return false;
      }
    }
    return true;
  }

  public void addFrom(BitBuffer src, long from, long n) {
    addFrom(src.data, from, n);
  }

  private void setAt(long p, boolean bit) {
    int idx = (int) (p >>> 3);
    if (bit) {
      data[idx] |= (byte) (1 << (p & 7));
    } else {
      data[idx] &= (byte) ~(1 << (p & 7));
    }
  }

  /** Copies bits [from, from + n) into a new array starting at bit 0. */
  public byte[] slice(long from, long n) {
    BitBuffer b = new BitBuffer();
    b.addFrom(data, from, n);
    return Arrays.copyOf(b.data, b.byteSize());
  }

  /** A little-endian buffer over a copy of the bitmap's bytes. */
  public ByteBuffer toBuffer() {
    return ByteBuffer.wrap(Arrays.copyOf(data, byteSize())).order(ByteOrder.LITTLE_ENDIAN);
  }
}
