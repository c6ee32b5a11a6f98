package dev.javelin.format.internal.compression.fsst;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * An FSST symbol table in the form Lance stores it in {@code lance.encodings21.Fsst.symbol_table}.
 *
 * <p>The serialized table is always {@value #SERIALIZED_SIZE} bytes, little-endian:
 * <pre>
 *   u64 header = 0x46535354 ("FSST") &lt;&lt; 32 | switch &lt;&lt; 24 | suffix_lim &lt;&lt; 16 | terminator &lt;&lt; 8 | n
 *   n × u64    symbols, code 0 first; byte k of a symbol is bits 8k..8k+7
 *   n × u8     symbol lengths, 1..8
 *   zeros      up to 2312 bytes
 * </pre>
 * Code 255 is the escape: the byte after it stands for itself, so a table has at most 255
 * symbols. When the switch bit is off the values were stored raw and the symbols are unused
 * (Lance turns it off for pages under 32 KiB). Lance's decoder reads only the magic, the switch,
 * {@code n}, the symbols and the lengths; {@code suffix_lim} and {@code terminator} are
 * encoder bookkeeping, kept here so a table survives a round trip unchanged.
 *
 * <p>Instances are immutable.
 */
public final class FsstSymbolTable {
  /** The size of a serialized table: header, 256 symbol slots, 256 length slots. */
  public static final int SERIALIZED_SIZE = 8 + 256 * 8 + 256;
  /** The code that marks an escaped byte. */
  public static final int ESCAPE = 255;
  /** The most symbols a table can hold. */
  public static final int MAX_SYMBOLS = 255;
  /** The longest a symbol can be. */
  public static final int MAX_SYMBOL_LENGTH = 8;

  static final long MAGIC = 0x46535354L;
  private static final FsstSymbolTable RAW = new FsstSymbolTable(false, 0, 0, new long[0], new byte[0]);

  private final boolean compresses;
  private final int suffixLimit;
  private final int terminator;
  private final long[] symbols;
  private final byte[] lengths;

  FsstSymbolTable(boolean compresses, int suffixLimit, int terminator, long[] symbols, byte[] lengths) {
    this.compresses = compresses;
    this.suffixLimit = suffixLimit;
    this.terminator = terminator;
    this.symbols = symbols;
    this.lengths = lengths;
  }

  /** The table Lance writes when it stores values raw (switch off, no symbols). */
  public static FsstSymbolTable raw() {
    return RAW;
  }

  /**
   * A compressing table whose code {@code i} stands for {@code symbols[i]}.
   *
   * @throws IllegalArgumentException if there are more than 255 symbols or one is not 1..8 bytes
   */
  public static FsstSymbolTable of(byte[]... symbols) {
    if (symbols.length > MAX_SYMBOLS) {
      throw new IllegalArgumentException("An FSST table holds at most 255 symbols, got " + symbols.length);
    }
    long[] vals = new long[symbols.length];
    byte[] lens = new byte[symbols.length];
    for (int i = 0; i < symbols.length; i++) {
      byte[] s = symbols[i];
      if (s.length < 1 || s.length > MAX_SYMBOL_LENGTH) {
        throw new IllegalArgumentException("FSST symbol " + i + " has length " + s.length + ", not 1..8");
      }
      long v = 0;
      for (int k = 0; k < s.length; k++) {
        v |= (s[k] & 0xFFL) << (8 * k);
      }
      vals[i] = v;
      lens[i] = (byte) s.length;
    }
    return new FsstSymbolTable(true, 0, 0, vals, lens);
  }

  /** Parses a serialized table; see {@link #parse(ByteBuffer)}. */
  public static FsstSymbolTable parse(byte[] table) {
    return parse(ByteBuffer.wrap(table));
  }

  /**
   * Parses a serialized table from the buffer's remaining bytes (its position is not moved).
   *
   * @throws IllegalArgumentException if the size is not {@value #SERIALIZED_SIZE} bytes, the magic
   *     is wrong, or a symbol in use has a length outside 1..8
   */
  public static FsstSymbolTable parse(ByteBuffer table) {
    ByteBuffer b = table.slice().order(ByteOrder.LITTLE_ENDIAN);
    if (b.remaining() != SERIALIZED_SIZE) {
      throw new IllegalArgumentException("FSST symbol table must be " + SERIALIZED_SIZE + " bytes, got "
          + b.remaining());
    }
    long header = b.getLong(0);
    if (header >>> 32 != MAGIC) {
      throw new IllegalArgumentException(String.format(
          "FSST symbol table has no FSST magic: header 0x%016x", header));
    }
    // Lance tests only bit 24 of the switch byte; do the same so we read what it reads.
    boolean compresses = (header & (1L << 24)) != 0;
    int suffixLimit = (int) (header >>> 16) & 0xFF;
    int terminator = (int) (header >>> 8) & 0xFF;
    int n = (int) header & 0xFF;
    if (!compresses) {
      // Lance ignores the symbols of a raw table; so do we, whatever they say.
      return new FsstSymbolTable(false, suffixLimit, terminator, new long[0], new byte[0]);
    }
    long[] symbols = new long[n];
    byte[] lengths = new byte[n];
    for (int i = 0; i < n; i++) {
      int len = b.get(8 + 8 * n + i);
      if (len < 1 || len > MAX_SYMBOL_LENGTH) {
        throw new IllegalArgumentException("FSST symbol table claims " + n + " symbols but symbol " + i
            + " has length " + len + ", not 1..8");
      }
      lengths[i] = (byte) len;
      // Keep only the symbol's own bytes so equal tables compare equal.
      symbols[i] = b.getLong(8 + 8 * i) & mask(len);
    }
    return new FsstSymbolTable(true, suffixLimit, terminator, symbols, lengths);
  }

  /** The table in Lance's {@value #SERIALIZED_SIZE}-byte form. */
  public byte[] serialize() {
    byte[] out = new byte[SERIALIZED_SIZE];
    ByteBuffer b = ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN);
    int n = symbols.length;
    b.putLong(0, MAGIC << 32 | (compresses ? 1L : 0L) << 24 | (long) suffixLimit << 16
        | (long) terminator << 8 | n);
    for (int i = 0; i < n; i++) {
      b.putLong(8 + 8 * i, symbols[i]);
      out[8 + 8 * n + i] = lengths[i];
    }
    return out;
  }

  /** Whether values are FSST-compressed (the switch bit); false means they are stored raw. */
  public boolean compresses() {
    return compresses;
  }

  /** The number of symbols; codes 0 .. {@code symbolCount() - 1} are in use. */
  public int symbolCount() {
    return symbols.length;
  }

  /** The length of the symbol for {@code code}. */
  public int symbolLength(int code) {
    return lengths[code];
  }

  /** The bytes the symbol for {@code code} stands for. */
  public byte[] symbol(int code) {
    byte[] s = new byte[lengths[code]];
    for (int k = 0; k < s.length; k++) {
      s[k] = (byte) (symbols[code] >>> (8 * k));
    }
    return s;
  }

  /** The header's terminator byte (encoder bookkeeping; decoding ignores it). */
  public int terminator() {
    return terminator;
  }

  /** The header's suffix limit (encoder bookkeeping; decoding ignores it). */
  public int suffixLimit() {
    return suffixLimit;
  }

  /** The symbols packed into little-endian words, code order. Shared; do not modify. */
  long[] packedSymbols() {
    return symbols;
  }

  /** The symbol lengths, code order. Shared; do not modify. */
  byte[] lengths() {
    return lengths;
  }

  /** A mask keeping the low {@code len} bytes of a word. */
  static long mask(int len) {
    return len >= 8 ? -1L : (1L << (8 * len)) - 1;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FsstSymbolTable t && compresses == t.compresses && suffixLimit == t.suffixLimit
        && terminator == t.terminator && Arrays.equals(symbols, t.symbols) && Arrays.equals(lengths, t.lengths);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(symbols) + Arrays.hashCode(lengths) + (compresses ? 1 : 0);
  }

  @Override
  public String toString() {
    return compresses ? "FsstSymbolTable{" + symbols.length + " symbols}" : "FsstSymbolTable{raw}";
  }
}
