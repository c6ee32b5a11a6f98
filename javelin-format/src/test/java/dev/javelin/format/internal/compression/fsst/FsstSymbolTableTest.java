package dev.javelin.format.internal.compression.fsst;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class FsstSymbolTableTest {
  private static byte[] ascii(String s) {
    return s.getBytes(US_ASCII);
  }

  @Test
  void parsesLancesTable() {
    FsstSymbolTable t = FsstSymbolTable.parse(LanceSamples.table());
    assertThat(t.compresses()).isTrue();
    assertThat(t.symbolCount()).isEqualTo(16);
    assertThat(t.suffixLimit()).isEqualTo(3);
    assertThat(t.terminator()).isEqualTo(0);
    assertThat(t.symbol(0)).isEqualTo(ascii("ab"));
    assertThat(t.symbol(4)).isEqualTo(ascii("bba"));
    assertThat(t.symbol(10)).isEqualTo(ascii("abba"));
    assertThat(t.symbol(11)).isEqualTo(new byte[] {0});
    assertThat(t.symbol(15)).isEqualTo(ascii("a"));
    assertThat(t.symbolLength(9)).isEqualTo(4);
  }

  @Test
  void serializesLancesTableBackByteForByte() {
    byte[] lance = LanceSamples.table();
    assertThat(FsstSymbolTable.parse(lance).serialize()).isEqualTo(lance);
  }

  @Test
  void layoutIsHeaderThenPackedSymbolsThenLengths() {
    byte[] s = FsstSymbolTable.of(ascii("xy"), ascii("hello!!!"), ascii("z")).serialize();
    ByteBuffer b = ByteBuffer.wrap(s).order(ByteOrder.LITTLE_ENDIAN);
    assertThat(s).hasSize(2312);
    assertThat(b.getLong(0)).isEqualTo(0x4653535401000003L);
    assertThat(b.getLong(8)).isEqualTo(0x7978L);
    assertThat(b.getLong(16)).isEqualTo(0x2121216f6c6c6568L); // "hello!!!", first byte lowest
    assertThat(b.getLong(24)).isEqualTo('z');
    // The lengths follow the three symbols directly, not at a fixed place.
    assertThat(Arrays.copyOfRange(s, 32, 35)).containsExactly(2, 8, 1);
    assertThat(Arrays.copyOfRange(s, 35, 2312)).containsOnly(0);
  }

  @Test
  void rawTableIsTheMagicAlone() {
    byte[] s = FsstSymbolTable.raw().serialize();
    assertThat(ByteBuffer.wrap(s).order(ByteOrder.LITTLE_ENDIAN).getLong(0)).isEqualTo(0x4653535400000000L);
    assertThat(Arrays.copyOfRange(s, 8, s.length)).containsOnly(0);
    assertThat(FsstSymbolTable.parse(s)).isEqualTo(FsstSymbolTable.raw());
    assertThat(FsstSymbolTable.parse(s).compresses()).isFalse();
  }

  @Test
  void rawTableIgnoresWhateverSymbolsItClaims() {
    byte[] s = LanceSamples.table();
    s[3] = 0; // switch off; the 16 symbols stay behind
    FsstSymbolTable t = FsstSymbolTable.parse(s);
    assertThat(t.compresses()).isFalse();
    assertThat(t.symbolCount()).isZero();
  }

  @Test
  void bytesBeyondASymbolsLengthAreDropped() {
    byte[] s = FsstSymbolTable.of(ascii("ab")).serialize();
    s[10] = 'q'; // third byte of the 2-byte symbol 0
    FsstSymbolTable t = FsstSymbolTable.parse(s);
    assertThat(t.symbol(0)).isEqualTo(ascii("ab"));
    assertThat(t).isEqualTo(FsstSymbolTable.of(ascii("ab")));
  }

  @Test
  void parsesFromABufferPositionWithoutMovingIt() {
    byte[] padded = new byte[2312 + 10];
    System.arraycopy(LanceSamples.table(), 0, padded, 5, 2312);
    ByteBuffer b = ByteBuffer.wrap(padded, 5, 2312);
    assertThat(FsstSymbolTable.parse(b).symbolCount()).isEqualTo(16);
    assertThat(b.position()).isEqualTo(5);
  }

  @Test
  void rejectsWrongSize() {
    assertThatThrownBy(() -> FsstSymbolTable.parse(new byte[2311]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("FSST symbol table must be 2312 bytes, got 2311");
  }

  @Test
  void rejectsMissingMagic() {
    byte[] s = LanceSamples.table();
    s[7] = 0x47;
    assertThatThrownBy(() -> FsstSymbolTable.parse(s))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("FSST symbol table has no FSST magic: header 0x4753535401030010");
  }

  @Test
  void rejectsACountThatRunsPastTheLengths() {
    byte[] s = LanceSamples.table();
    // One symbol more than there are: the lengths are then read 8 bytes further on, where the
    // 9th of them falls on the zeros after the table.
    s[0] = 17;
    assertThatThrownBy(() -> FsstSymbolTable.parse(s))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("FSST symbol table claims 17 symbols but symbol 8 has length 0, not 1..8");
  }

  @Test
  void rejectsSymbolsLongerThanEight() {
    byte[] s = LanceSamples.table();
    s[8 + 16 * 8 + 3] = 9;
    assertThatThrownBy(() -> FsstSymbolTable.parse(s))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("FSST symbol table claims 16 symbols but symbol 3 has length 9, not 1..8");
  }

  @Test
  void ofChecksItsSymbols() {
    assertThatThrownBy(() -> FsstSymbolTable.of(new byte[9]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("FSST symbol 0 has length 9, not 1..8");
    assertThatThrownBy(() -> FsstSymbolTable.of(new byte[0]))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> FsstSymbolTable.of(new byte[256][1]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("An FSST table holds at most 255 symbols, got 256");
  }

  @Test
  void holds255Symbols() {
    byte[][] syms = new byte[255][];
    for (int i = 0; i < 255; i++) {
      syms[i] = new byte[] {(byte) i, (byte) (i * 7), (byte) (i * 13)};
    }
    FsstSymbolTable t = FsstSymbolTable.of(syms);
    FsstSymbolTable back = FsstSymbolTable.parse(t.serialize());
    assertThat(back).isEqualTo(t);
    assertThat(back.symbol(254)).isEqualTo(syms[254]);
  }
}
