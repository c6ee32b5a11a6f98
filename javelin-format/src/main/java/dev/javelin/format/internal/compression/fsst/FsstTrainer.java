package dev.javelin.format.internal.compression.fsst;

import java.util.Arrays;

/**
 * Builds an FSST symbol table from a sample of the values, after Boncz, Neumann and Leis,
 * "FSST: Fast Random Access String Compression" (VLDB 2020).
 *
 * <p>Starting from an empty table, each round compresses (part of) the sample greedily with the
 * current table, counting how often each symbol is used and how often each pair of consecutive
 * symbols occurs. The next table takes the 255 candidates with the highest gain (count ×
 * length), where the candidates are the symbols in use, single bytes (boosted, which keeps the
 * escape rate down) and the concatenation of each counted pair, cut to 8 bytes. Rounds look at a
 * growing fraction of the sample (8/128 .. 128/128); the table that saved the most bytes per
 * sampled byte wins.
 *
 * <p>The sample is drawn with a fixed seed, so training is deterministic.
 */
final class FsstTrainer {
  static final int SAMPLE_TARGET = 1 << 14;
  /** Long values are sampled as windows of this many bytes. */
  static final int SAMPLE_PIECE = 512;
  private static final int SMALL_SAMPLE = 4096;
  private static final int CODES = 512;
  private static final int[] FRACTIONS = {8, 38, 68, 98, 128};

  private final byte[] data;
  /** The sample: piece i is data[pieces[2i], pieces[2i+1]). */
  private int[] pieces = new int[64];
  private int numPieces;
  private long sampledBytes;

  private final SymbolMap map = new SymbolMap(true);
  /** The current table: symbol i has code 256 + i. */
  private final long[] symbols = new long[FsstSymbolTable.MAX_SYMBOLS];
  private final byte[] lengths = new byte[FsstSymbolTable.MAX_SYMBOLS];
  private int numSymbols;

  private final int[] count1 = new int[CODES];
  private final int[] count2 = new int[CODES * CODES];
  /** The indexes of the non-zero entries of count2, so that rounds need not scan it all. */
  private int[] touched = new int[1024];
  private int numTouched;
  private final Candidates candidates = new Candidates();

  private FsstTrainer(byte[] data) {
    this.data = data;
  }

  /**
   * Trains a table on values {@code data[offsets[i], offsets[i+1])}, {@code i < numValues};
   * offsets are assumed checked. Returns the raw table if no symbol pays off.
   */
  static FsstSymbolTable train(byte[] data, int[] offsets, int numValues) {
    FsstTrainer t = new FsstTrainer(data);
    t.sample(offsets, numValues);
    return t.build();
  }

  private void sample(int[] offsets, int numValues) {
    long total = (long) offsets[numValues] - offsets[0];
    if (total <= SAMPLE_TARGET) {
      for (int i = 0; i < numValues; i++) {
        if (offsets[i + 1] > offsets[i]) {
          addPiece(offsets[i], offsets[i + 1]);
        }
      }
      return;
    }
    // Some value is non-empty, so this ends; the cap is a guard against bad luck only.
    long rng = 0x2545F4914F6CDD1DL;
    for (int tries = 0; sampledBytes < SAMPLE_TARGET && tries < 1 << 22; tries++) {
      rng = next(rng);
      int i = (int) ((rng >>> 1) % numValues);
      int start = offsets[i];
      int len = offsets[i + 1] - start;
      if (len == 0) {
        continue;
      }
      if (len > SAMPLE_PIECE) {
        rng = next(rng);
        start += (int) ((rng >>> 1) % (len - SAMPLE_PIECE + 1));
        len = SAMPLE_PIECE;
      }
      addPiece(start, start + len);
    }
  }

  private static long next(long x) {
    x ^= x << 13;
    x ^= x >>> 7;
    return x ^ (x << 17);
  }

  /** Adds a range to the sample, cut into windows so that every round sees some of it. */
  private void addPiece(int start, int end) {
    for (int s = start; s < end; s += SAMPLE_PIECE) {
      if (2 * numPieces + 2 > pieces.length) {
        pieces = Arrays.copyOf(pieces, pieces.length * 2);
      }
      pieces[2 * numPieces] = s;
      pieces[2 * numPieces + 1] = Math.min(end, s + SAMPLE_PIECE);
      numPieces++;
      sampledBytes += Math.min(end, s + SAMPLE_PIECE) - s;
    }
  }

  private FsstSymbolTable build() {
    double bestGain = Double.NEGATIVE_INFINITY;
    long[] bestSymbols = new long[0];
    byte[] bestLengths = new byte[0];
    for (int frac : FRACTIONS) {
      double gain = compressCount(frac);
      if (gain >= bestGain) {
        bestGain = gain;
        bestSymbols = Arrays.copyOf(symbols, numSymbols);
        bestLengths = Arrays.copyOf(lengths, numSymbols);
      }
      if (frac == 128) {
        break;
      }
      makeTable(frac);
    }
    if (bestSymbols.length == 0 || bestGain <= 0) {
      return FsstSymbolTable.raw();
    }
    return finish(bestSymbols, bestLengths);
  }

  /**
   * Whether piece {@code p} takes part in a round that looks at {@code frac}/128 of the sample.
   * Small samples are cheap to look at whole, and a fraction of a handful of pieces may be none.
   */
  private boolean inRound(int p, int frac) {
    return frac >= 128 || sampledBytes <= SMALL_SAMPLE || ((p * 0x9E3779B9) >>> 25) < frac;
  }

  /**
   * Compresses the round's share of the sample, filling the counters. Returns the bytes saved
   * per sampled byte.
   */
  private double compressCount(int frac) {
    // count2 is all zeros here: it starts so, and makeTable() clears what it reads.
    Arrays.fill(count1, 0);
    boolean pairs = frac < 128;
    long gain = 0;
    long seen = 0;
    for (int p = 0; p < numPieces; p++) {
      if (!inRound(p, frac)) {
        continue;
      }
      int in = pieces[2 * p];
      int end = pieces[2 * p + 1];
      seen += end - in;
      int prev = -1;
      while (in < end) {
        int e = map.match(data, in, end);
        int code = e & 0x1FF;
        int len = e >>> 12;
        int first = data[in] & 0xFF;
        count1[code]++;
        if (len > 1) {
          // Also count the alternative of using just the first byte here.
          count1[first]++;
        }
        gain += code >= 256 ? len - 1 : -1;
        if (pairs && prev >= 0) {
          countPair(prev * CODES + code);
          if (len > 1) {
            countPair(prev * CODES + first);
          }
        }
        prev = code;
        in += len;
      }
    }
    return seen == 0 ? Double.NEGATIVE_INFINITY : (double) gain / seen;
  }

  private long symbolValue(int code) {
    return code < 256 ? code : symbols[code - 256];
  }

  private int symbolLength(int code) {
    return code < 256 ? 1 : lengths[code - 256];
  }

  private void countPair(int index) {
    if (count2[index]++ == 0) {
      if (numTouched == touched.length) {
        touched = Arrays.copyOf(touched, 2 * touched.length);
      }
      touched[numTouched++] = index;
    }
  }

  /** Replaces the current table by the best candidates the counters suggest. */
  private void makeTable(int frac) {
    int minCount = 5 * frac / 128;
    int numCodes = 256 + numSymbols;
    candidates.clear();
    for (int c1 = 0; c1 < numCodes; c1++) {
      int cnt1 = count1[c1];
      if (cnt1 >= Math.max(1, minCount)) {
        int len1 = symbolLength(c1);
        // Single bytes get a boost: they replace escapes, which cost two bytes.
        candidates.add(symbolValue(c1), len1, (long) cnt1 * len1 * (len1 == 1 ? 8 : 1));
      }
    }
    // The pairs that occurred, in the order first seen; each counter is cleared as it is read.
    for (int t = 0; t < numTouched; t++) {
      int index = touched[t];
      int cnt2 = count2[index];
      count2[index] = 0;
      int c1 = index / CODES;
      int c2 = index % CODES;
      int len1 = symbolLength(c1);
      if (len1 == FsstSymbolTable.MAX_SYMBOL_LENGTH || cnt2 < minCount) {
        continue;
      }
      int len = Math.min(FsstSymbolTable.MAX_SYMBOL_LENGTH, len1 + symbolLength(c2));
      long v = (symbolValue(c1) | symbolValue(c2) << (8 * len1)) & FsstSymbolTable.mask(len);
      candidates.add(v, len, (long) cnt2 * len);
    }
    numTouched = 0;
    long[] order = candidates.byGain();
    map.clear();
    numSymbols = 0;
    for (int k = order.length - 1; k >= 0 && numSymbols < FsstSymbolTable.MAX_SYMBOLS; k--) {
      int idx = Candidates.index(order[k]);
      long v = candidates.values[idx];
      int len = candidates.lengths[idx];
      if (map.add(v, len, 256 + numSymbols)) {
        symbols[numSymbols] = v;
        lengths[numSymbols] = (byte) len;
        numSymbols++;
      }
    }
  }

  /**
   * Orders the chosen symbols the way Lance's encoder does (2-byte symbols that start a longer
   * symbol, other 2-byte symbols, then lengths 3..8, single bytes last) and fills in the header's
   * bookkeeping fields: the suffix limit and the sample's least frequent byte as terminator.
   */
  private FsstSymbolTable finish(long[] syms, byte[] lens) {
    int n = syms.length;
    long[] outSyms = new long[n];
    byte[] outLens = new byte[n];
    int k = 0;
    int suffixLimit = 0;
    for (int pass = 0; pass < 2; pass++) {
      for (int i = 0; i < n; i++) {
        if (lens[i] == 2 && startsLonger(syms, lens, i) == (pass == 0)) {
          outSyms[k] = syms[i];
          outLens[k++] = 2;
        }
      }
      if (pass == 0) {
        // Counted before the second pass adds the other 2-byte symbols.
        suffixLimit = k;
      }
    }
    for (int len : new int[] {3, 4, 5, 6, 7, 8, 1}) {
      for (int i = 0; i < n; i++) {
        if (lens[i] == len) {
          outSyms[k] = syms[i];
          outLens[k++] = (byte) len;
        }
      }
    }
    return new FsstSymbolTable(true, suffixLimit, leastFrequentByte(), outSyms, outLens);
  }

  private static boolean startsLonger(long[] syms, byte[] lens, int i) {
    long first2 = syms[i] & 0xFFFF;
    for (int j = 0; j < syms.length; j++) {
      if (lens[j] > 2 && (syms[j] & 0xFFFF) == first2) {
        return true;
      }
    }
    return false;
  }

  private int leastFrequentByte() {
    int[] histo = new int[256];
    for (int p = 0; p < numPieces; p++) {
      for (int i = pieces[2 * p]; i < pieces[2 * p + 1]; i++) {
        histo[data[i] & 0xFF]++;
      }
    }
    int best = 0;
    for (int b = 1; b < 256; b++) {
      if (histo[b] < histo[best]) {
        best = b;
      }
    }
    return best;
  }

  /** Candidate symbols with their summed gains: an open-addressing map keyed by (bytes, length). */
  private static final class Candidates {
    private static final int INDEX_BITS = 24;
    long[] values = new long[1 << 12];
    byte[] lengths = new byte[1 << 12];
    long[] gains = new long[1 << 12];
    int size;
    private int[] slots = new int[1 << 13];

    void clear() {
      size = 0;
      Arrays.fill(slots, -1);
    }

    void add(long value, int len, long gain) {
      int mask = slots.length - 1;
      int h = (int) (((value * 0x9E3779B97F4A7C15L) ^ len) >>> 40) & mask;
      while (true) {
        int idx = slots[h];
        if (idx < 0) {
          break;
        }
        if (values[idx] == value && lengths[idx] == len) {
          gains[idx] += gain;
          return;
        }
        h = (h + 1) & mask;
      }
      if (size == values.length) {
        values = Arrays.copyOf(values, size * 2);
        lengths = Arrays.copyOf(lengths, size * 2);
        gains = Arrays.copyOf(gains, size * 2);
      }
      values[size] = value;
      lengths[size] = (byte) len;
      gains[size] = gain;
      slots[h] = size++;
      if (2 * size > slots.length) {
        rehash();
      }
    }

    private void rehash() {
      slots = new int[slots.length * 2];
      Arrays.fill(slots, -1);
      int mask = slots.length - 1;
      for (int idx = 0; idx < size; idx++) {
        int h = (int) (((values[idx] * 0x9E3779B97F4A7C15L) ^ lengths[idx]) >>> 40) & mask;
        while (slots[h] >= 0) {
          h = (h + 1) & mask;
        }
        slots[h] = idx;
      }
    }

    /**
     * The candidates sorted by ascending gain, each packed as {@code gain << 24 | ~index}; the
     * complement makes ties go to the earlier candidate, for determinism.
     */
    long[] byGain() {
      long[] order = new long[size];
      for (int i = 0; i < size; i++) {
        long gain = Math.min(gains[i], (1L << (63 - INDEX_BITS)) - 1);
        order[i] = gain << INDEX_BITS | ((1 << INDEX_BITS) - 1 - i);
      }
      Arrays.sort(order);
      return order;
    }

    static int index(long packed) {
      return (1 << INDEX_BITS) - 1 - (int) (packed & ((1 << INDEX_BITS) - 1));
    }
  }
}
