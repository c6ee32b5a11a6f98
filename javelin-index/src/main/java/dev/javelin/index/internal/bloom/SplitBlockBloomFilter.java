package dev.javelin.index.internal.bloom;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A split block bloom filter as Parquet defines it and Lance stores it: 32-byte blocks of eight
 * little-endian u32 words; a hash's upper half picks the block, its lower half sets one bit in
 * each word (through eight fixed salts).
 */
final class SplitBlockBloomFilter {
  private static final int[] SALT = {
      0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d, 0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31};
  private static final int MIN_BYTES = 32;
  private static final int MAX_BYTES = 128 << 20;

  private final int[] words;

  private SplitBlockBloomFilter(int[] words) {
    this.words = words;
  }

  /**
   * An empty filter sized for {@code items} distinct values at false positive rate {@code fpp}: the
   * usual optimal bit count, rounded up to a power of two bytes (16 KiB for Lance's defaults of
   * 8,192 items at 0.00057).
   */
  static SplitBlockBloomFilter sized(long items, double fpp) {
    double bits = -Math.max(items, 1) * Math.log(fpp) / (Math.log(2) * Math.log(2));
    long need = (long) Math.ceil(bits / 8);
    long bytes = need <= MIN_BYTES ? MIN_BYTES : Math.min(MAX_BYTES, Long.highestOneBit(need - 1) * 2);
    return new SplitBlockBloomFilter(new int[(int) (bytes / 4)]);
  }

  /**
   * The filter stored in {@code bytes}.
   *
   * @throws IllegalArgumentException if the length is not a multiple of 32
   */
  static SplitBlockBloomFilter of(byte[] bytes) {
    if (bytes.length % 32 != 0) {
      throw new IllegalArgumentException("A bloom filter's length must be a multiple of 32 bytes, not " + bytes.length);
    }
    int[] words = new int[bytes.length / 4];
    ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().get(words);
    return new SplitBlockBloomFilter(words);
  }

  byte[] bytes() {
    ByteBuffer out = ByteBuffer.allocate(words.length * 4).order(ByteOrder.LITTLE_ENDIAN);
    out.asIntBuffer().put(words);
    return out.array();
  }

  void insert(long hash) {
    int block = block(hash);
    int x = (int) hash;
    for (int i = 0; i < 8; i++) {
      words[block + i] |= 1 << ((x * SALT[i]) >>> 27);
    }
  }

  boolean mightContain(long hash) {
    if (words.length == 0) {
      return false;
    }
    int block = block(hash);
    int x = (int) hash;
    for (int i = 0; i < 8; i++) {
      if ((words[block + i] & (1 << ((x * SALT[i]) >>> 27))) == 0) {
        return false;
      }
    }
    return true;
  }

  // The first word of the block the hash picks.
  private int block(long hash) {
    long blocks = words.length / 8;
    return (int) (((hash >>> 32) * blocks) >>> 32) * 8;
  }
}
