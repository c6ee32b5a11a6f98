package dev.javelin.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.core.internal.scan.DatasetReader;
import dev.javelin.core.internal.scan.ParallelScanReader;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.testing.MixedBatches;
import dev.javelin.testing.TestAllocator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class ParallelScanTest {
  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  // 3 fragments of 2,500 rows (each several parallel units at batch size 100) and one of 500.
  private Dataset create(LanceFileVersion v) {
    List<VectorSchemaRoot> batches = MixedBatches.batches(allocator, 0, 8_000, 1_000);
    try {
      return Dataset.create(dir.resolve("ds"), batches,
          WriteParams.builder().fileVersion(v).maxRowsPerFile(2_500).maxRowsPerGroup(300).build(), allocator);
    } finally {
      batches.forEach(VectorSchemaRoot::close);
    }
  }

  // Rows of each batch, batch by batch, so batch boundaries are compared too.
  private List<List<List<Object>>> scan(ScanBuilder scan) throws Exception {
    List<List<List<Object>>> out = new ArrayList<>();
    try (ArrowReader r = scan.build()) {
      while (r.loadNextBatch()) {
        out.add(MixedBatches.rows(r.getVectorSchemaRoot()));
      }
    }
    return out;
  }

  @ParameterizedTest
  @EnumSource(value = LanceFileVersion.class, names = {"V2_0", "V2_1"})
  void parallelScanReturnsTheSequentialBatches(LanceFileVersion v) throws Exception {
    Dataset ds = create(v);
    // Deleted rows: a whole batch, scattered rows, and rows across a unit boundary.
    List<Long> gone = new ArrayList<>();
    for (long r = 100; r < 200; r++) {
      gone.add(r);
    }
    for (long r = 3; r < 8_000; r += 97) {
      gone.add((r / 2_500) << 32 | (r % 2_500));
    }
    for (long r = 295; r < 310; r++) {
      gone.add(1L << 32 | r);
    }
    ds = ds.deleteRows(gone.stream().mapToLong(Long::longValue).distinct().toArray());
    Dataset d = ds;
    for (int threads : new int[] {2, 3, 8}) {
      assertThat(scan(d.newScan().batchSize(100).parallelism(threads).withRowId().withRowAddress()))
          .isEqualTo(scan(d.newScan().batchSize(100).parallelism(1).withRowId().withRowAddress()));
      assertThat(scan(d.newScan().columns("s", "_rowaddr").batchSize(64).parallelism(threads)))
          .isEqualTo(scan(d.newScan().columns("s", "_rowaddr").batchSize(64).parallelism(1)));
      assertThat(scan(d.newScan().columns("_rowaddr").parallelism(threads)))
          .isEqualTo(scan(d.newScan().columns("_rowaddr").parallelism(1)));
      assertThat(scan(d.newScan().filter("id % 3 = 0").parallelism(threads)))
          .isEqualTo(scan(d.newScan().filter("id % 3 = 0").parallelism(1)));
    }
    // Fragments cut into several units (of 3 batches), as large fragments are.
    for (int threads : new int[] {1, 2, 5}) {
      try (ArrowReader r = new ParallelScanReader(d.store(), d.location(), d.manifest().fragments(), d.fields(null),
          100, DatasetReader.metas(true, true), false, threads, 300, allocator)) {
        List<List<List<Object>>> got = new ArrayList<>();
        while (r.loadNextBatch()) {
          got.add(MixedBatches.rows(r.getVectorSchemaRoot()));
        }
        assertThat(got).isEqualTo(scan(d.newScan().batchSize(100).parallelism(1).withRowId().withRowAddress()));
      }
    }
  }

  @Test
  void filtersRunOnTheScanThreadsWithTheSequentialRows() throws Exception {
    Dataset ds = create(LanceFileVersion.V2_1).deleteRows(new long[] {5, 6, 1L << 32 | 40, 2L << 32 | 2_499});
    // A string condition behind a selective one (only its rows are copied), projections that
    // leave the filter's columns out, meta columns, offsets and limits across fragments.
    String filter = "x < 300 AND s LIKE 's1%' OR id % 50 = 7";
    List<java.util.function.Function<Integer, ScanBuilder>> scans = List.of(
        t -> ds.newScan().filter(filter).batchSize(100).parallelism(t),
        t -> ds.newScan().columns("id", "_rowaddr").filter(filter).batchSize(64).parallelism(t),
        t -> ds.newScan().columns("l").filter("s IS NULL OR s < 's3'").withRowId().parallelism(t),
        t -> ds.newScan().columns("st").filter(filter).offset(30).limit(45).batchSize(50).parallelism(t),
        t -> ds.newScan().columns("id").filter("id < 0").parallelism(t));
    for (var scan : scans) {
      List<List<List<Object>>> sequential = scan(scan.apply(1));
      for (int threads : new int[] {2, 3}) {
        // Empty batches are dropped either way, so the batches match one for one.
        assertThat(scan(scan.apply(threads))).isEqualTo(sequential);
      }
    }
    assertThat(scan(scans.get(4).apply(2))).isEmpty();
    assertThat(scan(scans.get(0).apply(2))).isNotEmpty();
  }

  @Test
  void filteredScansReadingTheOtherColumnsLateReturnTheSequentialRows() throws Exception {
    // Columns in two data files per fragment (one added later, computed from id), one all-null
    // column, deleted rows; filters that keep nothing, a few rows, runs of rows, or most rows, so
    // that the rest is read late, skipped, or (once wide batches are the rule) read with the rest.
    Dataset ds = create(LanceFileVersion.V2_1).deleteRows(new long[] {5, 6, 1L << 32 | 40, 2L << 32 | 2_499})
        .addColumns(java.util.Map.of("twice", "id * 2"))
        .addNullColumns(List.of(new org.apache.arrow.vector.types.pojo.Field("z",
            org.apache.arrow.vector.types.pojo.FieldType.nullable(
                new org.apache.arrow.vector.types.pojo.ArrowType.Int(32, true)), null)));
    List<String> filters = List.of("id < 0", "id = 4321", "id % 997 = 3", "id BETWEEN 2400 AND 2700",
        "twice % 4 = 0", "x > 0 OR id % 2 = 1", "id >= 6000 OR id % 500 = 1", "z IS NULL AND id < 100",
        "s LIKE 's1%'", "st.a > 10 AND id % 7 = 0");
    for (String filter : filters) {
      List<java.util.function.Function<Integer, ScanBuilder>> scans = List.of(
          t -> ds.newScan().filter(filter).batchSize(100).parallelism(t),
          t -> ds.newScan().columns("s", "l", "twice").filter(filter).withRowId().batchSize(64).parallelism(t),
          t -> ds.newScan().columns("st", "_rowaddr").filter(filter).parallelism(t),
          t -> ds.newScan().columns("id", "z").filter(filter).offset(10).limit(500).batchSize(50).parallelism(t));
      for (var scan : scans) {
        List<List<List<Object>>> sequential = scan(scan.apply(1));
        for (int threads : new int[] {2, 3}) {
          assertThat(scan(scan.apply(threads))).as(filter).isEqualTo(sequential);
        }
      }
    }
  }

  @Test
  void allNullColumnsAndLimitsStayRight() throws Exception {
    Dataset ds = create(LanceFileVersion.V2_1).addNullColumns(
        List.of(new org.apache.arrow.vector.types.pojo.Field("z",
            org.apache.arrow.vector.types.pojo.FieldType.nullable(
                new org.apache.arrow.vector.types.pojo.ArrowType.Int(32, true)), null)));
    assertThat(scan(ds.newScan().batchSize(128).parallelism(4)))
        .isEqualTo(scan(ds.newScan().batchSize(128).parallelism(1)));
    assertThat(scan(ds.newScan().offset(2_400).limit(300).parallelism(4)))
        .isEqualTo(scan(ds.newScan().offset(2_400).limit(300).parallelism(1)));
  }

  @Test
  void closingEarlyFreesEverythingAndMemoryStaysBounded() throws Exception {
    Dataset ds = create(LanceFileVersion.V2_0);
    try (BufferAllocator child = allocator.newChildAllocator("scan", 0, Long.MAX_VALUE)) {
      Dataset d = Dataset.open(dir.resolve("ds"), child);
      long oneBatch;
      try (ArrowReader r = d.newScan().batchSize(50).parallelism(1).build()) {
        r.loadNextBatch();
        oneBatch = child.getAllocatedMemory();
      }
      try (ArrowReader r = d.newScan().batchSize(50).parallelism(2).build()) {
        assertThat(r.loadNextBatch()).isTrue();
        Thread.sleep(200); // let the workers run ahead as far as they may
        r.loadNextBatch();
        // Window of 3 units of at most 32K rows (here a fragment, 2,500 rows = 50 batches) each.
        assertThat(child.getPeakMemoryAllocation()).isLessThan(3 * 60 * oneBatch);
      }
      assertThat(child.getAllocatedMemory()).isZero();
    }
    assertThatThrownBy(() -> ds.newScan().parallelism(0))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("parallelism must be positive: 0");
  }
}
