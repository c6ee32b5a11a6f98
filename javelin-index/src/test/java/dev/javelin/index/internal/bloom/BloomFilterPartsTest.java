package dev.javelin.index.internal.bloom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.junit.jupiter.api.Test;

class BloomFilterPartsTest {
  @Test
  void xxHash64MatchesTheReferenceVectors() {
    // Reference values of XXH64 with seed 0 (xxHash's own test vectors).
    assertThat(XxHash64.hash(new byte[0])).isEqualTo(0xEF46DB3751D8E999L);
    assertThat(XxHash64.hash("a".getBytes(StandardCharsets.US_ASCII))).isEqualTo(0xD24EC4F1A98C6E5BL);
    assertThat(XxHash64.hash("abc".getBytes(StandardCharsets.US_ASCII))).isEqualTo(0x44BC2CF5AD770999L);
    assertThat(XxHash64.hash("Nobody inspects the spammish repetition".getBytes(StandardCharsets.US_ASCII)))
        .isEqualTo(0xFBCEA83C8A378BF1L);
  }

  @Test
  void aFilterHoldsWhatWentInAndRarelyMore() {
    SplitBlockBloomFilter f = SplitBlockBloomFilter.sized(1000, 0.01);
    ArrowType i64 = new ArrowType.Int(64, true);
    for (long v = 0; v < 1000; v++) {
      f.insert(BloomFilterIndex.hashOf(v, i64));
    }
    for (long v = 0; v < 1000; v++) {
      assertThat(f.mightContain(BloomFilterIndex.hashOf(v, i64))).isTrue();
    }
    int falsePositives = 0;
    for (long v = 1000; v < 11_000; v++) {
      falsePositives += f.mightContain(BloomFilterIndex.hashOf(v, i64)) ? 1 : 0;
    }
    assertThat(falsePositives).isLessThan(300);
    // Through its bytes and back, the same answers.
    SplitBlockBloomFilter back = SplitBlockBloomFilter.of(f.bytes());
    assertThat(back.mightContain(BloomFilterIndex.hashOf(5L, i64))).isTrue();
    assertThat(back.bytes()).isEqualTo(f.bytes());
  }

  @Test
  void sizesArePowersOfTwoAsLanceChooses() {
    assertThat(SplitBlockBloomFilter.sized(8192, 0.00057).bytes()).hasSize(16 * 1024);
    assertThat(SplitBlockBloomFilter.sized(1, 0.5).bytes()).hasSize(32);
    assertThatThrownBy(() -> SplitBlockBloomFilter.of(new byte[33]))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("multiple of 32");
  }

  @Test
  void valuesAreHashedInTheirColumnsWidth() {
    assertThat(ValueBytes.of(1L, new ArrowType.Int(32, true))).containsExactly(1, 0, 0, 0);
    assertThat(ValueBytes.of(1L, new ArrowType.Int(16, false))).containsExactly(1, 0);
    assertThat(ValueBytes.of(1.0, new ArrowType.FloatingPoint(
        org.apache.arrow.vector.types.FloatingPointPrecision.SINGLE))).containsExactly(0, 0, (byte) 0x80, 0x3F);
    assertThat(ValueBytes.of("é", ArrowType.Utf8.INSTANCE)).containsExactly((byte) 0xC3, (byte) 0xA9);
  }
}
