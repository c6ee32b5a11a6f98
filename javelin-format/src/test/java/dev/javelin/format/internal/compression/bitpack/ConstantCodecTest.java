package dev.javelin.format.internal.compression.bitpack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

class ConstantCodecTest {
  @Test
  void repeatsTheValueBytes() {
    byte[] value = {1, 2, 3};
    assertThat(ConstantCodec.decode(value, 4)).containsExactly(1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3);
    assertThat(ConstantCodec.decode(value, 0)).isEmpty();
    assertThat(ConstantCodec.decode(new byte[] {9}, 1000)).hasSize(1000).containsOnly(9);
  }

  @Test
  void writesIntoABufferAtItsPosition() {
    ByteBuffer heap = ByteBuffer.allocate(10).position(2);
    ConstantCodec.decode(new byte[] {7, 8}, 4, heap);
    assertThat(heap.position()).isEqualTo(10);
    assertThat(heap.array()).containsExactly(0, 0, 7, 8, 7, 8, 7, 8, 7, 8);
    ByteBuffer direct = ByteBuffer.allocateDirect(4);
    ConstantCodec.decode(new byte[] {5, 6}, 2, direct);
    assertThat(direct.flip().getInt()).isEqualTo(0x05060506);
  }

  @Test
  void bitsPerValueFollowsTheValueLength() {
    assertThat(ConstantCodec.bitsPerValue(new byte[8])).isEqualTo(64);
    assertThat(ConstantCodec.bitsPerValue(null)).isZero();
  }

  @Test
  void rejectsBadArguments() {
    assertThatThrownBy(() -> ConstantCodec.decode(new byte[0], 3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("constant: no value bytes to repeat");
    assertThatThrownBy(() -> ConstantCodec.decode(null, 3, ByteBuffer.allocate(3)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ConstantCodec.decode(new byte[4], -1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ConstantCodec.decode(new byte[4], Integer.MAX_VALUE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("do not fit one array");
    assertThatThrownBy(() -> ConstantCodec.decode(new byte[4], 3, ByteBuffer.allocate(11)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("constant: output buffer has 11 bytes left, 12 needed");
  }
}
