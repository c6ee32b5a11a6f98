package dev.javelin.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.table.Fragment;
import dev.javelin.table.UnsupportedFeatureException;
import dev.javelin.table.io.LocalObjectStore;
import dev.javelin.table.rowids.RowIdSequence;
import java.nio.file.Path;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DatasetStableRowIdsTest {
  @TempDir Path dir;
  BufferAllocator allocator;

  @BeforeEach
  void open() {
    allocator = new RootAllocator();
  }

  @AfterEach
  void close() {
    allocator.close();
  }

  private Dataset write(Dataset ds, Path path, long start, int rows, WriteParams params) {
    List<VectorSchemaRoot> batches = TestData.batches(allocator, start, rows, 500);
    try {
      return ds == null ? Dataset.create(path, batches, params, allocator) : ds.overwrite(batches, params);
    } finally {
      batches.forEach(VectorSchemaRoot::close);
    }
  }

  @Test
  void createWithStableRowIdsAssignsIdsPerFragment() {
    Path path = dir.resolve("ds");
    WriteParams params = WriteParams.builder().maxRowsPerFile(400).enableStableRowIds(true).build();
    assertThat(params.enableStableRowIds()).isTrue();
    assertThat(WriteParams.defaults().enableStableRowIds()).isFalse();
    Dataset ds = write(null, path, 0, 1000, params);
    LocalObjectStore store = new LocalObjectStore(path);
    assertThat(ds.manifest().fragments()).extracting(f -> f.rowIdSequence(store).orElseThrow())
        .containsExactly(RowIdSequence.range(0, 400), RowIdSequence.range(400, 800), RowIdSequence.range(800, 1000));
    assertThat(ds.manifest().nextRowId()).isEqualTo(1000);
    // An overwrite keeps the feature and does not reuse ids.
    ds = write(ds, path, 0, 10, WriteParams.defaults());
    assertThat(ds.manifest().fragments().get(0).rowIdSequence(store)).contains(RowIdSequence.range(1000, 1010));
    assertThat(ds.countRows()).isEqualTo(10);
  }

  @Test
  void cannotTurnStableRowIdsOnForAnExistingDataset() {
    Path path = dir.resolve("ds");
    Dataset ds = write(null, path, 0, 100, WriteParams.defaults());
    assertThat(ds.manifest().fragments()).allSatisfy(
        (Fragment f) -> assertThat(f.rowIdSequence(new LocalObjectStore(path))).isEmpty());
    Dataset before = ds;
    assertThatThrownBy(() -> write(before, path, 0, 10, WriteParams.builder().enableStableRowIds(true).build()))
        .isInstanceOf(UnsupportedFeatureException.class)
        .hasMessage("Cannot enable stable row ids on an existing dataset (version 1 has none): " + ds.location());
    assertThat(Dataset.open(path, allocator).version()).isEqualTo(1);
    assertThat(path.resolve("data").toFile().list()).hasSize(1);
  }
}
