package dev.javelin.format.compression.fsst;

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
  private static final long[] MASKS = new long[9];

  static {
    for (int len = 0; len <= 8; len++) {
      MASKS[len] = len == 0 ? 0 : FsstSymbolTable.mask(len);
    }
  }

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

  /** Forgets all symbols: every byte escapes. */
  void clear() {
    for (int b = 0; b < 256; b++) {
      byteCodes[b] = (char) (pseudoCodes ? 1 << 12 | b : ESCAPE_ENTRY);
    }
    for (int i = 0; i < 65536; i++) {
      shortCodes[i] = byteCodes[i & 0xFF];
    }
    Arrays.fill(hashEntries, (char) 0);
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
    if (hashEntries[h] != 0) {
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

  /** The entry for the longest symbol this map finds at {@code src[in]}; {@code in < end}. */
  int match(byte[] src, int in, int end) {
    int rem = end - in;
    long word;
    if (rem >= 8) {
      word = (long) LONG_LE.get(src, in);
    } else if (end >= 8) {
      // Load the last 8 bytes of the array up to end and shift the value's tail down.
      word = (long) LONG_LE.get(src, end - 8) >>> (8 * (8 - rem));
    } else {
      word = 0;
      for (int k = 0; k < rem; k++) {
        word |= (src[in + k] & 0xFFL) << (8 * k);
      }
    }
    int h = hash(word);
    int e = hashEntries[h];
    int len = e >>> 12;
    if (len != 0 && len <= rem && (word & MASKS[len]) == hashSymbols[h]) {
      return e;
    }
    return rem >= 2 ? shortCodes[(int) word & 0xFFFF] : byteCodes[(int) word & 0xFF];
  }

  private static int hash(long word) {
    return (int) (((word & 0xFFFFFF) * 0x9E3779B97F4A7C15L) >>> (64 - HASH_BITS));
  }
}
