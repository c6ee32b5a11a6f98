package dev.javelin.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.EOFException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A mapped file reads the file's bytes, in reads within or across mapped segments. */
class MappedInputFileTest {
  @TempDir Path dir;

  @Test
  void readsWhatTheFileHoldsAcrossSegments() throws Exception {
    byte[] bytes = new byte[10_000];
    new Random(9).nextBytes(bytes);
    Path file = dir.resolve("bytes");
    Files.write(file, bytes);
    for (int segment : new int[] {MappedInputFile.SEGMENT, 1000, 4096}) {
      MappedInputFile m = MappedInputFile.open(file, segment);
      assertThat(m.length()).isEqualTo(10_000);
      for (int[] range : new int[][] {{0, 10}, {995, 10}, {3000, 5000}, {9990, 10}, {0, 10_000}, {10_000, 0}}) {
        byte[] want = Arrays.copyOfRange(bytes, range[0], range[0] + range[1]);
        ByteBuffer got = m.read(range[0], range[1]);
        byte[] have = new byte[got.remaining()];
        got.get(have);
        assertThat(have).as("segment %d range %d+%d", segment, range[0], range[1]).isEqualTo(want);
        for (ByteBuffer dst : new ByteBuffer[] {ByteBuffer.allocateDirect(range[1] + 3),
            ByteBuffer.allocate(range[1] + 3)}) {
          dst.position(3);
          m.readFully(range[0], dst);
          assertThat(dst.position()).isEqualTo(range[1] + 3);
          byte[] filled = new byte[range[1]];
          dst.get(3, filled);
          assertThat(filled).as("segment %d range %d+%d into %s", segment, range[0], range[1], dst).isEqualTo(want);
        }
      }
      assertThatThrownBy(() -> m.read(9_999, 2)).isInstanceOf(EOFException.class)
          .hasMessage("Read of 2 bytes at 9999 passes the end (10000 bytes) of " + file);
      assertThatThrownBy(() -> m.read(-1, 1)).isInstanceOf(EOFException.class);
      assertThatThrownBy(() -> m.readFully(9_000, ByteBuffer.allocate(1001))).isInstanceOf(EOFException.class);
    }
  }

  @Test
  void viewableOnlyWithinOneSegment() throws Exception {
    Path file = dir.resolve("bytes");
    Files.write(file, new byte[10_000]);
    MappedInputFile m = MappedInputFile.open(file, 4096);
    assertThat(m.viewable(0, 4096)).isTrue();
    assertThat(m.viewable(4095, 1)).isTrue();
    assertThat(m.viewable(4095, 2)).isFalse(); // spans two segments: view copies
    assertThat(m.viewable(8192, 1808)).isTrue();
    assertThat(m.viewable(9_999, 2)).isFalse(); // passes the end
    assertThat(m.viewable(0, 0)).isFalse();
    assertThat(LocalInputFile.open(file).viewable(0, 10)).isFalse();
  }
}
