package dev.javelin.format.internal.compression.fsst;

import java.util.Arrays;

/**
 * A run of variable-width values laid out the Arrow way: value {@code i} is
 * {@code bytes()[offsets()[i] .. offsets()[i + 1])}, and {@code offsets()[0] == 0}.
 *
 * <p>The arrays are shared, not copied: {@link #offsets()} may be longer than {@code count() + 1}
 * and {@link #bytes()} longer than {@link #dataLength()} (the decoder writes 8 bytes at a time and
 * keeps the slack). Callers must not modify them.
 */
public final class BinaryValues {
  private final int count;
  private final int[] offsets;
  private final byte[] bytes;

  BinaryValues(int count, int[] offsets, byte[] bytes) {
    this.count = count;
    this.offsets = offsets;
    this.bytes = bytes;
  }

  /** Copies the given values into a new instance; handy for tests and small inputs. */
  public static BinaryValues of(byte[]... values) {
    Builder b = new Builder(values.length, 64, Integer.MAX_VALUE);
    for (byte[] v : values) {
      b.add(v, 0, v.length);
    }
    return b.build();
  }

  /** The number of values. */
  public int count() {
    return count;
  }

  /** The offsets, at least {@code count() + 1} of them, starting at 0. */
  public int[] offsets() {
    return offsets;
  }

  /** The value bytes; only the first {@link #dataLength()} are meaningful. */
  public byte[] bytes() {
    return bytes;
  }

  /** The total length of all values. */
  public int dataLength() {
    return offsets[count];
  }

  /** The length of value {@code i}. */
  public int length(int i) {
    return offsets[i + 1] - offsets[i];
  }

  /** A copy of value {@code i}. */
  public byte[] value(int i) {
    return Arrays.copyOfRange(bytes, offsets[i], offsets[i + 1]);
  }

  @Override
  public String toString() {
    return "BinaryValues{count=" + count + ", dataLength=" + dataLength() + "}";
  }

  /**
   * Accumulates values, growing its arrays as needed, and refuses to hold more than a set number
   * of bytes. One builder can collect the output of several decode calls (e.g. the chunks of a
   * page); {@link #build()} hands its arrays over without copying. A caller that copies the
   * values out itself (into Arrow buffers, say) can instead read {@link #offsets()} and
   * {@link #bytes()} directly and {@link #clear()} the builder for the next batch, so that the
   * arrays are allocated once.
   */
  public static final class Builder {
    /** Java arrays cannot be much longer than this. */
    static final int MAX_ARRAY = Integer.MAX_VALUE - 16;

    private final int maxBytes;
    int count;
    int[] offsets;
    byte[] bytes;

    /**
     * @param expectedCount a hint for the number of values
     * @param expectedBytes a hint for the total length
     * @param maxBytes the most bytes this builder will hold; more is an {@link IllegalArgumentException}
     */
    public Builder(int expectedCount, int expectedBytes, int maxBytes) {
      if (expectedCount < 0 || expectedBytes < 0 || maxBytes < 0) {
        throw new IllegalArgumentException("Negative size hint or bound: count " + expectedCount
            + ", bytes " + expectedBytes + ", max " + maxBytes);
      }
      this.maxBytes = Math.min(maxBytes, MAX_ARRAY - 8);
      this.offsets = new int[Math.min(expectedCount, 1 << 20) + 1];
      this.bytes = new byte[Math.min(expectedBytes, this.maxBytes) + 8];
    }

    /** The number of values so far. */
    public int count() {
      return count;
    }

    /** The number of bytes so far. */
    public int dataLength() {
      return offsets[count];
    }

    /** The most bytes this builder will hold. */
    public int maxBytes() {
      return maxBytes;
    }

    /** The offsets so far, {@code count() + 1} of them; a live view, valid until the next change. */
    public int[] offsets() {
      checkOpen();
      return offsets;
    }

    /** The bytes so far, {@code dataLength()} of them; a live view, valid until the next change. */
    public byte[] bytes() {
      checkOpen();
      return bytes;
    }

    /** Forgets all values but keeps the arrays. */
    public Builder clear() {
      checkOpen();
      count = 0;
      offsets[0] = 0;
      return this;
    }

    private void checkOpen() {
      if (offsets == null) {
        throw new IllegalStateException("Builder already built");
      }
    }

    /** Appends one value. */
    public Builder add(byte[] src, int off, int len) {
      ensureValues(1);
      int end = offsets[count];
      ensureBytes(end, len, len);
      System.arraycopy(src, off, bytes, end, len);
      offsets[++count] = end + len;
      return this;
    }

    /** The values so far; the builder must not be used afterwards. */
    public BinaryValues build() {
      BinaryValues v = new BinaryValues(count, offsets, bytes);
      offsets = null;
      bytes = null;
      return v;
    }

    /** Makes room for {@code n} more offsets. */
    void ensureValues(int n) {
      checkOpen();
      long need = (long) count + n + 1;
      if (need > offsets.length) {
        if (need > MAX_ARRAY) {
          throw new IllegalArgumentException("Too many values: " + need);
        }
        offsets = Arrays.copyOf(offsets, (int) Math.min(MAX_ARRAY, Math.max(need, 2L * offsets.length)));
      }
    }

    /**
     * Makes room to write a value of at most {@code worst} bytes at {@code pos}, plus 8 bytes of
     * slack for word-sized stores. Fails when even the {@code least} bytes the value surely needs
     * would pass the bound. Returns false when the bound allows {@code least} but not
     * {@code worst}: the caller must then find the exact length before writing.
     */
    boolean ensureBytes(int pos, long least, long worst) {
      if (pos + least > maxBytes) {
        throw tooLarge(pos + least);
      }
      long want = Math.min(pos + worst, maxBytes) + 8;
      if (want > bytes.length) {
        long grown = Math.max(want, Math.min(2L * bytes.length, (long) maxBytes + 8));
        bytes = Arrays.copyOf(bytes, (int) grown);
      }
      return pos + worst <= maxBytes;
    }

    IllegalArgumentException tooLarge(long size) {
      return new IllegalArgumentException("Values need at least " + size
          + " bytes, more than the bound of " + maxBytes);
    }
  }
}
