package dev.javelin.format.internal.compression.fsst;

import java.util.HexFormat;

/**
 * Bytes written by the real Lance (lance-core 7.0.0, file format 2.1), cut down to test size.
 *
 * <p>The column held 3000 distinct strings, value {@code i} being "ab" or "ba" for each of the
 * low 12 bits of {@code i} (set: "ab"), then "c"; Lance chose a mini-block FSST page. The
 * alphabet is tiny, so Lance's trained table has only 16 symbols.
 */
final class LanceSamples {
  private LanceSamples() {}

  /**
   * The first 8 + 9 × 16 bytes of the page's 2312-byte symbol table; the rest is zeros. Header
   * {@code 0x4653535401030010}: magic, switch on, suffix_lim 3, terminator 0, 16 symbols:
   * ab ba bb bc bba bac aab abab baab baba abba, then the single bytes 00 b a b a.
   */
  static final String TABLE_HEAD = "1000030154535346"
      + "6162000000000000" + "6261000000000000" + "6262000000000000" + "6263000000000000"
      + "6262610000000000" + "6261630000000000" + "6161620000000000" + "6162616200000000"
      + "6261616200000000" + "6261626100000000" + "6162626100000000" + "0000000000000000"
      + "6200000000000000" + "6100000000000000" + "6200000000000000" + "6100000000000000"
      + "02020202030303040404040101010101";

  /** Values 0..5 of the first chunk as Lance compressed them. */
  static final String[] COMPRESSED = {
      "090909090909ff63", "0a0909090909ff63", "080909090909ff63",
      "070909090909ff63", "090a09090909ff63", "0a0a09090909ff63"};

  /** The full serialized table. */
  static byte[] table() {
    byte[] head = HexFormat.of().parseHex(TABLE_HEAD);
    byte[] table = new byte[FsstSymbolTable.SERIALIZED_SIZE];
    System.arraycopy(head, 0, table, 0, head.length);
    return table;
  }

  /** Value {@code i} of the column. */
  static String value(int i) {
    StringBuilder b = new StringBuilder();
    for (int j = 0; j < 12; j++) {
      b.append(((i >> j) & 1) != 0 ? "ab" : "ba");
    }
    return b.append('c').toString();
  }
}
