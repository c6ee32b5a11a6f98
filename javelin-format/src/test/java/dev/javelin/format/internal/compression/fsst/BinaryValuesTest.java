package dev.javelin.format.internal.compression.fsst;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class BinaryValuesTest {
  @Test
  void holdsArrowStyleOffsets() {
    BinaryValues v = BinaryValues.of("ab".getBytes(US_ASCII), new byte[0], "cde".getBytes(US_ASCII));
    assertThat(v.count()).isEqualTo(3);
    assertThat(Arrays.copyOf(v.offsets(), 4)).containsExactly(0, 2, 2, 5);
    assertThat(v.dataLength()).isEqualTo(5);
    assertThat(v.length(2)).isEqualTo(3);
    assertThat(v.value(2)).isEqualTo("cde".getBytes(US_ASCII));
  }

  @Test
  void builderCanBeClearedAndReused() {
    FsstDecoder decoder = new FsstDecoder(FsstSymbolTable.of("hello".getBytes(US_ASCII)));
    ByteBuffer chunk = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN).putInt(8).putInt(10).put(new byte[] {0, 0})
        .flip();
    BinaryValues.Builder out = new BinaryValues.Builder(1, 1, 100);
    decoder.decode(chunk, 32, 1, chunk, out);
    byte[] first = out.bytes();
    assertThat(new String(first, 0, out.dataLength(), US_ASCII)).isEqualTo("hellohello");
    out.clear();
    assertThat(out.count()).isZero();
    assertThat(out.dataLength()).isZero();
    decoder.decode(chunk, 32, 1, chunk, out);
    assertThat(out.bytes()).isSameAs(first);
    assertThat(Arrays.copyOf(out.offsets(), 2)).containsExactly(0, 10);
  }

  @Test
  void builderRefusesToGrowPastItsBound() {
    BinaryValues.Builder b = new BinaryValues.Builder(0, 0, 4);
    b.add(new byte[3], 0, 3);
    assertThatThrownBy(() -> b.add(new byte[2], 0, 2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Values need at least 5 bytes, more than the bound of 4");
    assertThat(b.count()).isEqualTo(1);
    b.build();
    assertThatThrownBy(() -> b.add(new byte[1], 0, 1)).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> new BinaryValues.Builder(-1, 0, 1)).isInstanceOf(IllegalArgumentException.class);
  }
}
