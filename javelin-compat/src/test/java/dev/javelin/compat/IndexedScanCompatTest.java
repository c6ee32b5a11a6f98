package dev.javelin.compat;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.core.Dataset;
import dev.javelin.core.IndexInfo;
import dev.javelin.core.ScanPlan;
import dev.javelin.testing.Readers;
import dev.javelin.testing.TestAllocator;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.index.IndexParams;
import org.lance.index.scalar.BTreeIndexParams;
import org.lance.ipc.ScanOptions;

/**
 * Javelin's index-using scans against lance-core 7.0.0's filtered scans on the same dataset
 * (lance-core's BTrees, appends and deletes), row by row; then Javelin optimizes the indices and
 * lance-core answers the same with them.
 */
class IndexedScanCompatTest {
  static final List<String> FILTERS = List.of("n = 5", "n = -40", "n < 0", "n >= 56", "n BETWEEN -5 AND 5",
      "n IN (1, 2, 99)", "n IS NULL", "s = 'k7'", "s < 'k2'", "s IN ('k0', 'k52', 'zz')", "s IS NULL",
      "n < 0 AND s = 'k7'", "n = 5 OR n IS NULL", "n > 10 AND id % 2 = 0", "s = 'k1' OR n = 3",
      "n = 5 OR id < 10");

  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  private void lanceWrite(Path path, org.lance.WriteParams.WriteMode mode, long start, int rows) throws Exception {
    VectorSchemaRoot root = VectorSchemaRoot.create(BTreeIndexCompatTest.SCHEMA, allocator);
    try {
      root.allocateNew();
      for (int i = 0; i < rows; i++) {
        long r = start + i;
        ((BigIntVector) root.getVector("id")).setSafe(i, r);
        Integer n = BTreeIndexCompatTest.n(r);
        if (n != null) {
          ((IntVector) root.getVector("n")).setSafe(i, n);
        } else {
          ((IntVector) root.getVector("n")).setNull(i);
        }
        String s = BTreeIndexCompatTest.s(r);
        if (s != null) {
          ((VarCharVector) root.getVector("s")).setSafe(i, s.getBytes(StandardCharsets.UTF_8));
        } else {
          ((VarCharVector) root.getVector("s")).setNull(i);
        }
      }
      root.setRowCount(rows);
      try (ArrowReader reader = readerOf(root)) {
        org.lance.Dataset.write().allocator(allocator).reader(reader).uri(path.toString()).mode(mode)
            .maxRowsPerFile(1000).execute().close();
      }
    } finally {
      root.close();
    }
  }

  // One batch it does not own, with this test's schema, for lance-core's writer.
  private ArrowReader readerOf(VectorSchemaRoot batch) {
    return Readers.readerOf(allocator, BTreeIndexCompatTest.SCHEMA, List.of(batch));
  }

  private List<List<String>> lanceRows(org.lance.Dataset lance, String filter) throws Exception {
    try (var scanner = lance.newScan(new ScanOptions.Builder().columns(List.of("id", "n", "s")).filter(filter)
        .useScalarIndex(true).build())) {
      List<List<String>> rows = new ArrayList<>(DatasetCompatSupport.readAll(scanner.scanBatches()));
      rows.sort(Comparator.comparingLong(r -> Long.parseLong(r.get(0))));
      return rows;
    }
  }

  private List<List<String>> javelinRows(Dataset ds, String filter) throws Exception {
    return DatasetCompatSupport.readAll(ds.newScan().columns("id", "n", "s").filter(filter).batchSize(300).build());
  }

  // Javelin's rows come in scan order (fragment, then row; ids ascend with it); lance-core's
  // indexed scan does not promise an order, so its rows are sorted by id.
  private void assertSame(org.lance.Dataset lance, Dataset ds, boolean allCovered) throws Exception {
    for (String f : FILTERS) {
      List<List<String>> want = lanceRows(lance, f);
      assertThat(want).as(f).isNotEmpty();
      DatasetCompatSupport.assertSameRows(javelinRows(ds, f), want);
      assertThat(ds.countRows(f)).as(f).isEqualTo(want.size());
      ScanPlan plan = ds.explain(f);
      if (!f.contains("id")) {
        assertThat(plan.usesIndex()).as(f).isTrue();
        assertThat(plan.scannedFragments()).as(f).hasSize(allCovered ? 0 : 1);
      }
    }
  }

  @Test
  void javelinIndexedScansEqualLanceFilteredScansAndOptimizeIsReadByLance() throws Exception {
    Path path = dir.resolve("ds");
    lanceWrite(path, org.lance.WriteParams.WriteMode.CREATE, 0, 3000);
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      IndexParams params = IndexParams.builder().setScalarIndexParams(BTreeIndexParams.builder().build()).build();
      lance.createIndex(List.of("n"), org.lance.index.IndexType.BTREE, Optional.of("n_idx"), params, false);
      lance.createIndex(List.of("s"), org.lance.index.IndexType.BTREE, Optional.of("s_idx"), params, false);
      lance.delete("id % 13 = 0");
    }
    lanceWrite(path, org.lance.WriteParams.WriteMode.APPEND, 3000, 700);
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      lance.delete("id > 3600 OR id % 17 = 1");
    }
    Dataset ds = Dataset.open(path, allocator);
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      assertSame(lance, ds, false);
    }
    Dataset optimized = ds.optimizeIndices().dataset();
    assertThat(optimized.indices()).extracting(IndexInfo::fragments).containsOnly(java.util.Set.of(0L, 1L, 2L, 3L));
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      assertThat(lance.version()).isEqualTo(optimized.version());
      assertThat(lance.getIndexes()).extracting(i -> i.fragments().orElseThrow()).containsOnly(List.of(0, 1, 2, 3));
      assertThat(((Number) lance.getIndexStatistics("n_idx").get("num_unindexed_rows")).longValue()).isZero();
      assertSame(lance, optimized, true);
      // lance-core with Javelin's merged index answers as lance-core without any index.
      for (String f : FILTERS) {
        try (var scanner = lance.newScan(new ScanOptions.Builder().columns(List.of("id", "n", "s")).filter(f)
            .useScalarIndex(false).build())) {
          List<List<String>> plain = new ArrayList<>(DatasetCompatSupport.readAll(scanner.scanBatches()));
          plain.sort(Comparator.comparingLong(r -> Long.parseLong(r.get(0))));
          assertThat(lanceRows(lance, f)).as(f).isEqualTo(plain);
        }
      }
    }
  }
}
