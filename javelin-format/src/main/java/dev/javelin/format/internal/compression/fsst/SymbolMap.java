package dev.javelin.format.internal.compression.fsst;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Finds the symbol to use at a position of the input, the way FSST's compressor does: a
 * symbol of 3..8 bytes is found through a small hash table keyed by its first three bytes, one
 * symbol per slot; a 2-byte symbol through a table indexed by the two bytes; otherwise the
 * single byte's symbol, or an escape.
 *
 * <p>A match is an entry {@code length << 12 | code}. Codes come in two flavours. While
 * training ({@code pseudoCodes}), codes 0..255 are the bytes themselves (an escape of that
 * byte) and symbols are numbered from 256, so the trainer can count both. For the final table,
 * symbols are codes 0..254 and an escape is {@code 0x1FF}: its low byte is the escape code 255
 * and bit 8 tells the compressor to emit the literal byte after it.
 *
 * <p>A symbol never matches past the end of the value; a rejected insert (a taken slot, a
 * duplicate) returns false and leaves the map unchanged.
 */
final class SymbolMap {
  static final int ESCAPE_ENTRY = 1 << 12 | 0x1FF;
  private static final int HASH_BITS = 12;
  private static final int HASH_SIZE = 1 << HASH_BITS;
  private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class,
      ByteOrder.LITTLE_ENDIAN);
  /** The length field of a free hash slot: more than any symbol's, so it never matches. */
  private static final int FREE_LENGTH = 15;
  private static final char FREE = (char) (FREE_LENGTH << 12);
  /** MASKS[len] keeps the low len bytes of a word (all of it for a free slot's length). */
  private static final long[] MASKS = new long[16];

  static {
    for (int len = 0; len < MASKS.length; len++) {
      MASKS[len] = len == 0 ? 0 : FsstSymbolTable.mask(len);
    }
  }

  private static final char[] PSEUDO_BYTES = emptyBytes(true);
  private static final char[] ESCAPE_BYTES = emptyBytes(false);
  private static final char[] PSEUDO_SHORTS = emptyShorts(PSEUDO_BYTES);
  private static final char[] ESCAPE_SHORTS = emptyShorts(ESCAPE_BYTES);

  private final boolean pseudoCodes;
  private final char[] byteCodes = new char[256];
  private final char[] shortCodes = new char[65536];
  private final long[] hashSymbols = new long[HASH_SIZE];
  private final char[] hashEntries = new char[HASH_SIZE];

  SymbolMap(boolean pseudoCodes) {
    this.pseudoCodes = pseudoCodes;
    clear();
  }

  /** A map for compressing with a finished table. */
  static SymbolMap forTable(FsstSymbolTable table) {
    SymbolMap map = new SymbolMap(false);
    long[] symbols = table.packedSymbols();
    byte[] lengths = table.lengths();
    // Longer symbols first, so that if two 3+ byte symbols share a slot the longer one wins;
    // any symbol left out only costs compression, never correctness.
    for (int len = 8; len >= 1; len--) {
      for (int code = 0; code < symbols.length; code++) {
        if (lengths[code] == len) {
          map.add(symbols[code], len, code);
        }
      }
    }
    return map;
  }

  /**
   * Forgets all symbols: every byte escapes. Copies prebuilt tables rather than filling the
   * 64 Ki short codes one by one: training clears once per round, so this shows in profiles.
   */
  void clear() {
    char[] bytes = pseudoCodes ? PSEUDO_BYTES : ESCAPE_BYTES;
    System.arraycopy(bytes, 0, byteCodes, 0, 256);
    System.arraycopy(pseudoCodes ? PSEUDO_SHORTS : ESCAPE_SHORTS, 0, shortCodes, 0, 65536);
    Arrays.fill(hashEntries, FREE);
  }

  /** The byte codes of an empty map: each byte escapes. */
  private static char[] emptyBytes(boolean pseudoCodes) {
    char[] bytes = new char[256];
    for (int b = 0; b < 256; b++) {
      bytes[b] = (char) (pseudoCodes ? 1 << 12 | b : ESCAPE_ENTRY);
    }
    return bytes;
  }

  /** The short codes of an empty map: each pair's first byte escapes. */
  private static char[] emptyShorts(char[] bytes) {
    char[] shorts = new char[65536];
    for (int i = 0; i < 65536; i++) {
      shorts[i] = bytes[i & 0xFF];
    }
    return shorts;
  }

  /** Adds a symbol (its bytes packed little-endian into {@code value}); false if it cannot be placed. */
  boolean add(long value, int len, int code) {
    char entry = (char) (len << 12 | code);
    if (len == 1) {
      int b = (int) value & 0xFF;
      if (isSymbol(byteCodes[b])) {
        return false;
      }
      byteCodes[b] = entry;
      for (int hi = 0; hi < 256; hi++) {
        int i = hi << 8 | b;
        if (shortCodes[i] >>> 12 != 2) {
          shortCodes[i] = entry;
        }
      }
      return true;
    }
    if (len == 2) {
      int i = (int) value & 0xFFFF;
      if (shortCodes[i] >>> 12 == 2) {
        return false;
      }
      shortCodes[i] = entry;
      return true;
    }
    int h = hash(value);
    if (hashEntries[h] != FREE) {
      return false;
    }
    hashSymbols[h] = value & MASKS[len];
    hashEntries[h] = entry;
    return true;
  }

  private boolean isSymbol(int entry) {
    int code = entry & 0x1FF;
    return pseudoCodes ? code >= 256 : (code & 0x100) == 0;
  }

  /**
   * The entry for the longest symbol this map finds at {@code src[in]}; {@code in < end}.
   *
   * <p>The hot path of compression and training. Away from the array's last 8 bytes the input is
   * read as one word (bytes past the value masked off); the hash probe and the short-code lookup
   * are both done and the result is picked without a data-dependent branch, since whether a
   * 3+ byte symbol matches is as good as random from one position to the next.
   */
  int match(byte[] src, int in, int end) {
    int rem = end - in;
    int remWord = Math.min(rem, 8);
    long word;
    if (in <= src.length - 8) {
      word = (long) LONG_LE.get(src, in) & MASKS[remWord];
    } else {
      word = tailWord(src, in, end);
    }
    int h = hash(word);
    int e = hashEntries[h];
    int len = e >>> 12;
    // A free slot has length FREE_LENGTH > 8, so it never passes the first test.
    if (len <= remWord && (word & MASKS[len]) == hashSymbols[h]) {
      return e;
    }
    return rem >= 2 ? shortCodes[(int) word & 0xFFFF] : byteCodes[(int) word & 0xFF];
  }

  /** The word at {@code src[in]} when fewer than 8 bytes of the array are left. */
  private static long tailWord(byte[] src, int in, int end) {
    int rem = Math.min(end - in, 8);
    long word = 0;
    for (int k = 0; k < rem; k++) {
      word |= (src[in + k] & 0xFFL) << (8 * k);
    }
    return word;
  }

  private static int hash(long word) {
    return (int) (((word & 0xFFFFFF) * 0x9E3779B97F4A7C15L) >>> (64 - HASH_BITS));
  }
}
