package dev.javelin.format.internal.v21;

import dev.javelin.format.exceptions.BadDataException;
import dev.javelin.format.internal.compression.bitpack.FastLanes;
import dev.javelin.format.internal.compression.bitpack.InlineBitpackingCodec;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Reads {@code InlineBitpacking}: blocks of 1024 values, each a bit-width word then its FastLanes
 * packing ({@link InlineBitpackingCodec}). Lance puts one block in a mini-block chunk and one in a
 * block of at most 1024 levels; more blocks back to back are read the same way.
 */
final class InlineBitpackingDecompressor implements MiniBlockDecompressor, BlockDecompressor {
  private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

  private final int bits;
  // Scratch blocks for the 32- and 64-bit paths, reused so a scan allocates nothing per block.
  private long[] packedLongs;
  private long[] longs;
  private int[] packedInts;
  private int[] ints;

  InlineBitpackingDecompressor(int bits) {
    this.bits = bits;
  }

  /** The width of the values: 8, 16, 32 or 64 bits. */
  int bits() {
    return bits;
  }

  @Override
  public int numBuffers() {
    return 1;
  }

  @Override
  public void decode(ByteBuffer[] buffers, int numValues, LeafValues out) {
    decode(buffers[0], numValues, out);
  }

  @Override
  public void decode(ByteBuffer buffer, int numValues, LeafValues out) {
    if ((bits == 64 || bits == 32) && buffer.hasArray() && out instanceof FixedValues
        && ((FixedValues) out).bits == bits) {
      decodeWide(buffer, numValues, (FixedValues) out);
      return;
    }
    int wordBytes = bits / 8;
    byte[] dst = new byte[Math.multiplyExact(numValues, wordBytes)];
    ByteBuffer target = ByteBuffer.wrap(dst).order(ByteOrder.LITTLE_ENDIAN);
    int pos = 0;
    int done = 0;
    int size = buffer.limit();
    while (done < numValues) {
      if (pos + wordBytes > size) {
        throw new BadDataException("bit-packed values end after " + done + " of " + numValues + " values");
      }
      long width = PageDecoder.unsigned(buffer, pos, wordBytes);
      if (width < 0 || width > bits) {
        throw new BadDataException("bit-packed block declares " + Long.toUnsignedString(width) + " bits per "
            + bits + "-bit value");
      }
      int blockBytes = InlineBitpackingCodec.chunkBytes(bits, (int) width);
      if (pos + blockBytes > size) {
        throw new BadDataException("bit-packed block of " + blockBytes + " bytes at byte " + pos
            + " passes the end of its " + size + "-byte buffer");
      }
      int n = Math.min(FastLanes.BLOCK, numValues - done);
      InlineBitpackingCodec.decodeChunk(buffer.slice(pos, blockBytes), n, bits, target);
      done += n;
      pos += blockBytes;
    }
    ((FixedValues) out).appendOwned(dst, numValues);
  }

  /** Whether {@link #decodeRange} can fill {@code out}: 32- or 64-bit values of the same width. */
  boolean decodesRanges(LeafValues out) {
    return (bits == 64 || bits == 32) && out instanceof FixedValues && ((FixedValues) out).bits == bits;
  }

  // The block last unpacked by decodeRange: its key (chunk, block) and value count; -1 for none.
  private long blockKey = -1;
  private int blockValues;

  private static long key(long chunk, int block) {
    return chunk << 20 | block;
  }

  /**
   * Appends values [from, to) of chunk {@code chunk} from the block unpacked last, if it holds
   * them all; false (appending nothing) otherwise.
   */
  boolean appendCached(long chunk, int from, int to, FixedValues out) {
    int block = from / FastLanes.BLOCK;
    if (blockKey != key(chunk, block) || to - block * FastLanes.BLOCK > blockValues) {
      return false;
    }
    append(from - block * FastLanes.BLOCK, to - from, out);
    return true;
  }

  /**
   * Appends values [from, to) of a chunk of {@code numValues} values, unpacking only the blocks of
   * 1024 values that hold them (the others are only stepped over, their width words checked);
   * the last block unpacked is kept for {@link #appendCached}. Checks as
   * {@link #decode(ByteBuffer, int, LeafValues)} for the blocks it walks.
   */
  void decodeRange(ByteBuffer buffer, int numValues, int from, int to, long chunk, FixedValues out) {
    if (from < 0 || to > numValues || from > to) {
      throw new BadDataException("values " + from + ".." + to + " of a chunk of " + numValues);
    }
    int wordBytes = bits / 8;
    // A buffer without an array is a view of a mapped file: values are read where they lie.
    boolean array = buffer.hasArray();
    byte[] src = array ? buffer.array() : null;
    int base = array ? buffer.arrayOffset() : 0;
    int size = buffer.limit();
    int pos = 0;
    int done = 0;
    int block = 0;
    while (done < to) {
      if (pos + wordBytes > size) {
        throw new BadDataException("bit-packed values end after " + done + " of " + numValues + " values");
      }
      long width = PageDecoder.unsigned(buffer, pos, wordBytes);
      if (width < 0 || width > bits) {
        throw new BadDataException("bit-packed block declares " + Long.toUnsignedString(width) + " bits per "
            + bits + "-bit value");
      }
      int w = (int) width;
      int blockBytes = InlineBitpackingCodec.chunkBytes(bits, w);
      if (pos + blockBytes > size) {
        throw new BadDataException("bit-packed block of " + blockBytes + " bytes at byte " + pos
            + " passes the end of its " + size + "-byte buffer");
      }
      int n = Math.min(FastLanes.BLOCK, numValues - done);
      if (done + n > from) {
        int lo0 = Math.max(from, done);
        int hi0 = Math.min(to, done + n);
        long k = key(chunk, block);
        if (k != fewKey) {
          fewKey = k;
          fewTaken = 0;
        }
        if (blockKey != k && hi0 - lo0 <= FEW && fewTaken < FEW_PER_BLOCK) {
          // A take of a few values reads them where they lie instead of unpacking 1,024; once a
          // take has read many from the same block (a dense take), it unpacks it, so the rest need
          // no bit arithmetic at all. Unpacking costs about as much as reading some dozens.
          if (array) {
            appendFew(src, base + pos + wordBytes, w, lo0 - done, hi0 - lo0, out);
          } else {
            appendFew(buffer, pos + wordBytes, w, lo0 - done, hi0 - lo0, out);
          }
          fewTaken += hi0 - lo0;
          done += n;
          pos += blockBytes;
          block++;
          continue;
        }
        if (blockKey != key(chunk, block)) {
          blockKey = -1;
          ensureScratch(); // only now: a take of a few values needs no 16 KiB of scratch
          if (array) {
            unpack(src, base + pos + wordBytes, w);
          } else {
            unpack(buffer, pos + wordBytes, w);
          }
          blockKey = key(chunk, block);
          blockValues = n;
        }
        int lo = Math.max(from, done);
        int hi = Math.min(to, done + n);
        append(lo - done, hi - lo, out);
      }
      done += n;
      pos += blockBytes;
      block++;
    }
  }

  // Up to this many values of a block not unpacked yet are read one by one.
  private static final int FEW = 16;
  // Values read one by one from a block before a take unpacks it instead.
  private static final int FEW_PER_BLOCK = 32;
  // The block a few values were last read from without unpacking it (-1 for none), and how many.
  private long fewKey = -1;
  private int fewTaken;

  private void appendFew(byte[] src, int from, int w, int first, int n, FixedValues out) {
    int at = out.extendValues(n);
    byte[] dst = out.array();
    if (bits == 64) {
      for (int i = 0; i < n; i++) {
        LONGS.set(dst, at + 8 * i, FastLanes.unpackOne64(src, from, w, first + i));
      }
    } else {
      for (int i = 0; i < n; i++) {
        INTS.set(dst, at + 4 * i, FastLanes.unpackOne32(src, from, w, first + i));
      }
    }
  }

  // As appendFew, from a little-endian buffer with no array.
  private void appendFew(ByteBuffer src, int from, int w, int first, int n, FixedValues out) {
    int at = out.extendValues(n);
    byte[] dst = out.array();
    if (bits == 64) {
      for (int i = 0; i < n; i++) {
        LONGS.set(dst, at + 8 * i, FastLanes.unpackOne64(src, from, w, first + i));
      }
    } else {
      for (int i = 0; i < n; i++) {
        INTS.set(dst, at + 4 * i, FastLanes.unpackOne32(src, from, w, first + i));
      }
    }
  }

  // As unpack, from a little-endian buffer with no array.
  private void unpack(ByteBuffer src, int from, int w) {
    int words = FastLanes.packedWords(bits, w);
    if (bits == 64) {
      for (int i = 0; i < words; i++) {
        packedLongs[i] = src.getLong(from + 8 * i);
      }
      FastLanes.unpack(w, packedLongs, 0, longs, 0);
    } else {
      for (int i = 0; i < words; i++) {
        packedInts[i] = src.getInt(from + 4 * i);
      }
      FastLanes.unpack(w, packedInts, 0, ints, 0);
    }
  }

  private void ensureScratch() {
    if (bits == 64 && longs == null) {
      packedLongs = new long[FastLanes.BLOCK];
      longs = new long[FastLanes.BLOCK];
    } else if (bits == 32 && ints == null) {
      packedInts = new int[FastLanes.BLOCK];
      ints = new int[FastLanes.BLOCK];
    }
  }

  // Unpacks the block whose packed words start at src[from] into longs/ints.
  private void unpack(byte[] src, int from, int w) {
    int words = FastLanes.packedWords(bits, w);
    if (bits == 64) {
      for (int i = 0; i < words; i++) {
        packedLongs[i] = (long) LONGS.get(src, from + 8 * i);
      }
      FastLanes.unpack(w, packedLongs, 0, longs, 0);
    } else {
      for (int i = 0; i < words; i++) {
        packedInts[i] = (int) INTS.get(src, from + 4 * i);
      }
      FastLanes.unpack(w, packedInts, 0, ints, 0);
    }
  }

  // Appends n unpacked values from index `first` of the scratch block.
  private void append(int first, int n, FixedValues out) {
    int at = out.extendValues(n);
    byte[] dst = out.array();
    if (bits == 64) {
      for (int i = 0; i < n; i++) {
        LONGS.set(dst, at + 8 * i, longs[first + i]);
      }
    } else {
      for (int i = 0; i < n; i++) {
        INTS.set(dst, at + 4 * i, ints[first + i]);
      }
    }
  }

  /**
   * 32- and 64-bit values straight from the chunk's array into the output's: the packed words are
   * read with little-endian array views, unpacked, and written back the same way, with no
   * per-block allocation. Checks as {@link #decode(ByteBuffer, int, LeafValues)}.
   */
  private void decodeWide(ByteBuffer buffer, int numValues, FixedValues out) {
    int wordBytes = bits / 8;
    byte[] src = buffer.array();
    int base = buffer.arrayOffset();
    int size = buffer.limit();
    int at = out.extendValues(numValues);
    byte[] dst = out.array();
    blockKey = -1; // the scratch blocks are overwritten
    if (bits == 64 && longs == null) {
      packedLongs = new long[FastLanes.BLOCK];
      longs = new long[FastLanes.BLOCK];
    } else if (bits == 32 && ints == null) {
      packedInts = new int[FastLanes.BLOCK];
      ints = new int[FastLanes.BLOCK];
    }
    int pos = 0;
    int done = 0;
    while (done < numValues) {
      if (pos + wordBytes > size) {
        throw new BadDataException("bit-packed values end after " + done + " of " + numValues + " values");
      }
      long width = PageDecoder.unsigned(buffer, pos, wordBytes);
      if (width < 0 || width > bits) {
        throw new BadDataException("bit-packed block declares " + Long.toUnsignedString(width) + " bits per "
            + bits + "-bit value");
      }
      int w = (int) width;
      int blockBytes = InlineBitpackingCodec.chunkBytes(bits, w);
      if (pos + blockBytes > size) {
        throw new BadDataException("bit-packed block of " + blockBytes + " bytes at byte " + pos
            + " passes the end of its " + size + "-byte buffer");
      }
      int n = Math.min(FastLanes.BLOCK, numValues - done);
      int words = FastLanes.packedWords(bits, w);
      int from = base + pos + wordBytes;
      int to = at + done * wordBytes;
      if (bits == 64) {
        long[] packed = packedLongs;
        long[] vals = longs;
        for (int i = 0; i < words; i++) {
          packed[i] = (long) LONGS.get(src, from + 8 * i);
        }
        FastLanes.unpack(w, packed, 0, vals, 0);
        for (int i = 0; i < n; i++) {
          LONGS.set(dst, to + 8 * i, vals[i]);
        }
      } else {
        int[] packed = packedInts;
        int[] vals = ints;
        for (int i = 0; i < words; i++) {
          packed[i] = (int) INTS.get(src, from + 4 * i);
        }
        FastLanes.unpack(w, packed, 0, vals, 0);
        for (int i = 0; i < n; i++) {
          INTS.set(dst, to + 4 * i, vals[i]);
        }
      }
      done += n;
      pos += blockBytes;
    }
  }
}
