package dev.javelin.core;

import static dev.javelin.core.DatasetApiTest.scanAll;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.table.CleanupPolicy;
import dev.javelin.table.CleanupResult;
import dev.javelin.table.exceptions.TagNotFoundException;
import dev.javelin.table.exceptions.VersionNotFoundException;
import dev.javelin.testing.MixedBatches;
import dev.javelin.testing.TestAllocator;
import java.nio.file.Path;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tags, restore and cleanup through the Dataset API, with the rows read back. */
class DatasetVersionsTest {
  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  private List<VectorSchemaRoot> data(long start, int rows) {
    return MixedBatches.batches(allocator, start, rows, 400);
  }

  private Dataset write(Dataset ds, long start, int rows, boolean overwrite) {
    List<VectorSchemaRoot> batches = data(start, rows);
    try {
      WriteParams p = WriteParams.builder().maxRowsPerFile(500).build();
      if (ds == null) {
        return Dataset.create(dir.resolve("ds"), batches, p, allocator);
      }
      return overwrite ? ds.overwrite(batches, p) : ds.append(batches, p);
    } finally {
      batches.forEach(VectorSchemaRoot::close);
    }
  }

  private List<List<Object>> expected(long start, int rows) {
    try (VectorSchemaRoot r = MixedBatches.batch(allocator, start, rows)) {
      return MixedBatches.rows(r);
    }
  }

  @Test
  void tagsOpenAndCheckOut() throws Exception {
    Dataset v1 = write(null, 0, 700, false);
    Dataset v2 = write(v1, 700, 300, false);
    v2.tags().create("first", 1);
    v2.tags().create("second", 2);
    assertThat(v2.tags().list().keySet()).containsExactly("first", "second");
    Dataset atFirst = Dataset.open(dir.resolve("ds"), "first", allocator);
    assertThat(atFirst.version()).isEqualTo(1);
    MixedBatches.assertSameRows(scanAll(atFirst, 256), expected(0, 700));
    MixedBatches.assertSameRows(scanAll(atFirst.checkout("second"), 256), expected(0, 1000));
    v2.tags().update("second", 1);
    assertThat(v2.checkout("second").version()).isEqualTo(1);
    assertThatThrownBy(() -> v2.checkout("third")).isInstanceOf(TagNotFoundException.class)
        .hasMessage("Dataset has no tag 'third': " + v2.location());
  }

  @Test
  void restoreMakesAnOldVersionTheNewest() throws Exception {
    Dataset v1 = write(null, 0, 700, false);
    Dataset v2 = write(v1, 700, 300, false);
    Dataset v3 = write(v2, 5000, 100, true);
    Dataset v4 = v3.checkout(2).restore();
    assertThat(v4.version()).isEqualTo(4);
    MixedBatches.assertSameRows(scanAll(v4, 300), expected(0, 1000));
    assertThat(Dataset.open(dir.resolve("ds"), allocator).version()).isEqualTo(4);
    assertThat(v4.versions()).extracting(VersionInfo::operation)
        .containsExactly("Overwrite", "Append", "Overwrite", "Restore");
    // Appending continues from the restored rows.
    Dataset v5 = write(v4, 1000, 50, false);
    MixedBatches.assertSameRows(scanAll(v5, 300), expected(0, 1050));
    MixedBatches.assertSameRows(scanAll(v5.checkout(3), 300), expected(5000, 100));
  }

  @Test
  void cleanupKeepsWhatKeptVersionsRead() throws Exception {
    Dataset v1 = write(null, 0, 700, false);
    Dataset v2 = write(v1, 700, 300, false);
    Dataset v3 = write(v2, 5000, 100, true);
    Dataset v4 = v3.checkout(1).restore();
    Dataset v5 = write(v4, 700, 20, false);
    v5.tags().create("old", 2);
    CleanupResult r = v5.cleanup(CleanupPolicy.builder().retainVersions(2).build());
    // v1 and v3 go; v2 is tagged. v3's file is used by nothing kept, but like Lance, nothing
    // written after the oldest kept version (v2) is removed.
    assertThat(r.removedVersions()).containsExactly(1L, 3L);
    assertThat(r.dataFilesRemoved()).isZero();
    assertThat(v5.versions()).extracting(VersionInfo::version).containsExactly(2L, 4L, 5L);
    MixedBatches.assertSameRows(scanAll(v5.checkout("old"), 300), expected(0, 1000));
    MixedBatches.assertSameRows(scanAll(v5.checkout(4), 300), expected(0, 700));
    MixedBatches.assertSameRows(scanAll(Dataset.open(dir.resolve("ds"), allocator), 300), expected(0, 720));
    assertThatThrownBy(() -> v5.checkout(3)).isInstanceOf(VersionNotFoundException.class);

    v5.tags().delete("old");
    r = v5.cleanup(CleanupPolicy.builder().retainVersions(2).build());
    // v2's appended file goes (only v2 used it); v3's is now referenced by no manifest at all and
    // young, so it waits for the grace period unless asked.
    assertThat(r.removedVersions()).containsExactly(2L);
    assertThat(r.dataFilesRemoved()).isEqualTo(1);
    r = v5.cleanup(CleanupPolicy.builder().retainVersions(2).deleteUnverified(true).build());
    assertThat(r.dataFilesRemoved()).isEqualTo(1);
    assertThat(v5.manifest().fragments()).hasSize(3);
    MixedBatches.assertSameRows(scanAll(v5.checkout(4), 300), expected(0, 700));
    MixedBatches.assertSameRows(scanAll(v5, 300), expected(0, 720));
  }
}
