package dev.javelin.table.deletion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.io.LocalObjectStore;
import dev.javelin.table.DeletionFile;
import dev.javelin.table.exceptions.CorruptManifestException;
import dev.javelin.testing.TestAllocator;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.roaringbitmap.RoaringBitmap;

class DeletionFilesTest {
  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  @Test
  void fewRowsAreAZstdArrowFileManyABitmap() throws Exception {
    LocalObjectStore store = new LocalObjectStore(dir);
    RoaringBitmap few = RoaringBitmap.bitmapOf(0, 3, 7, 4_000_000);
    DeletionFile a = DeletionFiles.write(store, 4, 9, few, allocator);
    assertThat(a.isBitmap()).isFalse();
    assertThat(a.numDeletedRows()).isEqualTo(4);
    assertThat(a.readVersion()).isEqualTo(9);
    assertThat(a.key(4)).startsWith("_deletions/4-9-").endsWith(".arrow");
    byte[] bytes = Files.readAllBytes(dir.resolve(a.key(4)));
    assertThat(new String(bytes, 0, 6, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("ARROW1");
    assertThat(DeletionFiles.read(store, 4, a, allocator)).isEqualTo(few);

    RoaringBitmap exactly = new RoaringBitmap();
    for (int i = 0; i < DeletionFiles.BITMAP_THRESHOLD; i++) {
      exactly.add(i * 3);
    }
    assertThat(DeletionFiles.write(store, 4, 9, exactly, allocator).isBitmap()).isFalse();
    RoaringBitmap many = exactly.clone();
    many.add(1);
    DeletionFile b = DeletionFiles.write(store, 4, 9, many, allocator);
    assertThat(b.isBitmap()).isTrue();
    assertThat(b.key(4)).endsWith(".bin");
    assertThat(DeletionFiles.read(store, 4, b, allocator)).isEqualTo(many);
    assertThat(DeletionFiles.read(store, 4, DeletionFiles.write(store, 4, 9, exactly, allocator), allocator))
        .isEqualTo(exactly);
  }

  @Test
  void corruptFilesNameThemselves() throws Exception {
    LocalObjectStore store = new LocalObjectStore(dir);
    DeletionFile a = DeletionFiles.write(store, 1, 2, RoaringBitmap.bitmapOf(5), allocator);
    Files.write(dir.resolve(a.key(1)), new byte[] {1, 2, 3});
    assertThatThrownBy(() -> DeletionFiles.read(store, 1, a, allocator)).isInstanceOf(CorruptManifestException.class)
        .hasMessage("Deletion file is not an Arrow IPC file of row ids: " + store.location() + "/" + a.key(1));
    assertThatThrownBy(() -> DeletionFiles.write(store, 1, 2, new RoaringBitmap(), allocator))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("No deleted rows to write for fragment 1: " + store.location());
  }
}
