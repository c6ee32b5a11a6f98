package dev.javelin.format.internal.v21;

import dev.javelin.format.internal.encoding.ByteBuilder;
import dev.javelin.format.proto.Encodings21.CompressiveEncoding;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Dictionary-encodes a page of variable-width values the way lance-core 7.0.0 does: when the page
 * has at least 100 values and its estimated dictionary size (distinct values at the average value
 * size, one offset per distinct value and a 32-bit index per value) is under 0.8 of its plain size
 * (bytes plus offsets). Lance estimates the distinct count with HyperLogLog; Javelin counts exactly,
 * and stops counting once the dictionary can no longer pay off.
 *
 * <p>The dictionary is a block in Lance's {@code Variable} block form (offset width, start of the
 * bytes, offsets from 0, bytes), items in order of first appearance; the indices are 32-bit values
 * compressed like any other (see {@link FixedCompression}). Null values are empty and share the
 * index of the empty value.
 */
final class StringDictionary {
  static final int MIN_VALUES = 100;
  static final double MAX_RATIO = 0.8;

  final int[] indices;
  final int numItems;
  final byte[] block;
  final CompressiveEncoding encoding;

  private StringDictionary(int[] indices, int numItems, byte[] block, CompressiveEncoding encoding) {
    this.indices = indices;
    this.numItems = numItems;
    this.block = block;
    this.encoding = encoding;
  }

  /** The dictionary encoding of the page, or null when Lance's rule says it does not pay. */
  static StringDictionary tryEncode(VarValues values) {
    int n = values.count();
    if (n < MIN_VALUES) {
      return null;
    }
    int w = values.offsetBytes;
    long dataSize = values.dataSize() + (long) (n + 1) * w;
    long avg = dataSize / n;
    // card * (avg + w) + n * w < MAX_RATIO * dataSize
    double room = MAX_RATIO * dataSize - (double) n * w;
    if (room <= 0) {
      return null;
    }
    long maxCard = Math.min(n, (long) Math.ceil(room / (avg + w)) - 1);
    if (maxCard < 1) {
      return null;
    }
    // Counting exactly costs a hash table probe per value; a page of mostly distinct values (the
    // usual case for names, ids, text) is rejected first by an estimate that only hashes. The
    // margin is far beyond the estimate's error (about 1.6%), so the outcome is the exact rule's.
    if (estimateDistinct(values, maxCard * 1.25 + 64) > maxCard * 1.25 + 64) {
      return null;
    }
    int cap = Integer.highestOneBit((int) Math.min(1 << 29, Math.max(16, maxCard * 2))) << 1;
    int mask = cap - 1;
    int[] table = new int[cap];
    Arrays.fill(table, -1);
    int[] firstOf = new int[(int) Math.min(maxCard + 1, n)];
    int[] indices = new int[n];
    byte[] data = values.data();
    int card = 0;
    for (int i = 0; i < n; i++) {
      int s = (int) values.start(i);
      int e = (int) values.end(i);
      int slot = hash(data, s, e) & mask;
      while (true) {
        int item = table[slot];
        if (item < 0) {
          if (card == maxCard || card == firstOf.length) {
            return null;
          }
          table[slot] = card;
          firstOf[card] = i;
          indices[i] = card++;
          break;
        }
        int j = firstOf[item];
        int js = (int) values.start(j);
        int je = (int) values.end(j);
        if (Arrays.equals(data, s, e, data, js, je)) {
          indices[i] = item;
          break;
        }
        slot = (slot + 1) & mask;
      }
    }
    return new StringDictionary(indices, card, block(values, firstOf, card), Protos21.variable(w * 8));
  }

  // Lance's Variable block: [offset width in bits][start of bytes][card + 1 offsets from 0][bytes].
  private static byte[] block(VarValues values, int[] firstOf, int card) {
    int w = values.offsetBytes;
    long bytes = 0;
    for (int k = 0; k < card; k++) {
      bytes += values.length(firstOf[k]);
    }
    long start = 2L * w + (long) (card + 1) * w;
    ByteBuilder b = new ByteBuilder((int) (start + bytes));
    b.appendUnsigned(w * 8L, w);
    b.appendUnsigned(start, w);
    long off = 0;
    b.appendUnsigned(0, w);
    for (int k = 0; k < card; k++) {
      off += values.length(firstOf[k]);
      b.appendUnsigned(off, w);
    }
    for (int k = 0; k < card; k++) {
      int j = firstOf[k];
      b.append(values.data(), (int) values.start(j), values.length(j));
    }
    return Arrays.copyOf(b.array(), b.size());
  }

  private static final int HLL_BITS = 12;

  /** HyperLogLog estimate of the number of distinct values (2^12 registers). */
  static double estimateDistinct(VarValues values) {
    return estimateDistinct(values, Double.POSITIVE_INFINITY);
  }

  // Values hashed between looks at the estimate so far.
  private static final int LOOK_EVERY = 1 << 14;

  /**
   * As {@link #estimateDistinct(VarValues)}, but may stop early with an estimate over
   * {@code enough} once the values seen so far have one: the raw HyperLogLog estimate only grows
   * as registers do, and over 2.5 times the register count it is the estimate, so the whole
   * page's would be over too: the dictionary decision is the same.
   */
  static double estimateDistinct(VarValues values, double enough) {
    int m = 1 << HLL_BITS;
    byte[] registers = new byte[m];
    byte[] data = values.data();
    int n = values.count();
    long[] ends = values.endsArray();
    boolean look = enough > 2.5 * m;
    int s = 0;
    for (int i = 0; i < n; i++) {
      int e = (int) ends[i];
      int h = hash(data, s, e);
      s = e;
      int j = h >>> (32 - HLL_BITS);
      int rank = Integer.numberOfLeadingZeros(h << HLL_BITS | 1 << (HLL_BITS - 1)) + 1;
      if (rank > registers[j]) {
        registers[j] = (byte) rank;
      }
      if (look && (i + 1) % LOOK_EVERY == 0 && i + 1 < n) {
        // The raw estimate only grows with the registers, and above 2.5m it is the estimate.
        double sofar = raw(registers);
        if (sofar > enough) {
          return sofar;
        }
      }
    }
    return estimate(registers);
  }

  private static double raw(byte[] registers) {
    int m = registers.length;
    double sum = 0;
    for (byte r : registers) {
      sum += 1.0 / (1L << r);
    }
    double alpha = 0.7213 / (1 + 1.079 / m);
    return alpha * m * (double) m / sum;
  }

  private static double estimate(byte[] registers) {
    int m = registers.length;
    int zeros = 0;
    for (byte r : registers) {
      if (r == 0) {
        zeros++;
      }
    }
    double estimate = raw(registers);
    if (estimate <= 2.5 * m && zeros > 0) {
      estimate = m * Math.log((double) m / zeros);
    }
    return estimate;
  }

  private static final VarHandle LE_INT = MethodHandles.byteArrayViewVarHandle(
      int[].class, ByteOrder.LITTLE_ENDIAN);

  private static int hash(byte[] d, int s, int e) {
    int h = 0x9747b28c ^ (e - s);
    int i = s;
    for (; i + 4 <= e; i += 4) {
      int k = (int) LE_INT.get(d, i);
      k *= 0xcc9e2d51;
      k = Integer.rotateLeft(k, 15) * 0x1b873593;
      h = Integer.rotateLeft(h ^ k, 13) * 5 + 0xe6546b64;
    }
    for (; i < e; i++) {
      h = (h ^ (d[i] & 0xFF)) * 0x01000193;
    }
    h ^= h >>> 16;
    h *= 0x85ebca6b;
    h ^= h >>> 13;
    return h ^ (h >>> 16);
  }
}
