package dev.javelin.compat;

import static dev.javelin.compat.DatasetCompatSupport.assertSameRows;
import static dev.javelin.compat.DatasetCompatSupport.batches;
import static dev.javelin.compat.DatasetCompatSupport.javelinScan;
import static dev.javelin.compat.DatasetCompatSupport.readAll;
import static dev.javelin.compat.DatasetCompatSupport.readerOf;
import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.core.Dataset;
import dev.javelin.core.WriteParams;
import dev.javelin.core.compaction.CompactionMode;
import dev.javelin.core.compaction.CompactionOptions;
import dev.javelin.core.compaction.CompactionScope;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.testing.TestAllocator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lance.ipc.ScanOptions;
import org.lance.schema.SqlExpressions;

/**
 * Column repacks by binary copy ({@code LanceFileZip}): lance-core 7.0.0 reads, row by row, a
 * dataset whose backfilled files Javelin zipped into one per fragment, and files lance-core wrote
 * zip as well as Javelin's.
 */
class DatasetBinaryRepackCompatTest {
  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  private static final CompactionOptions FORCE_REPACK = CompactionOptions.builder()
      .scope(CompactionScope.REPACK_COLUMNS).maxDataFilesPerFragment(1).mode(CompactionMode.FORCE_BINARY_COPY).build();

  private static List<List<String>> lanceScan(org.lance.Dataset lance) throws Exception {
    try (var scanner = lance.newScan(new ScanOptions.Builder().batchSize(700).build())) {
      return readAll(scanner.scanBatches());
    }
  }

  private Dataset backfill(Dataset ds, String name, long k) {
    Schema s = new Schema(List.of(Field.nullable(name, new ArrowType.Int(64, true))));
    return ds.addColumns(s, List.of("id"), in -> {
      VectorSchemaRoot out = VectorSchemaRoot.create(s, allocator);
      out.allocateNew();
      BigIntVector id = (BigIntVector) in.getVector("id");
      BigIntVector v = (BigIntVector) out.getVector(0);
      for (int i = 0; i < in.getRowCount(); i++) {
        v.setSafe(i, id.get(i) * k);
      }
      out.setRowCount(in.getRowCount());
      return out;
    });
  }

  private static List<Integer> fileCounts(Dataset ds) {
    List<Integer> out = new ArrayList<>();
    ds.columnLayoutStats().fragments().forEach(f -> out.add(f.dataFiles()));
    return out;
  }

  @ParameterizedTest
  @ValueSource(strings = {"2.0", "2.1"})
  void lanceReadsADatasetJavelinRepackedByBinaryCopy(String version) throws Exception {
    Path path = dir.resolve("ds");
    LanceFileVersion v = version.equals("2.0") ? LanceFileVersion.V2_0 : LanceFileVersion.V2_1;
    List<VectorSchemaRoot> data = batches(allocator, 0, 2500, 700);
    Dataset ds;
    try {
      ds = Dataset.create(path, data, WriteParams.builder().fileVersion(v).maxRowsPerFile(500).build(), allocator);
    } finally {
      data.forEach(VectorSchemaRoot::close);
    }
    // Nested (st), list (l) and backfilled columns, a dropped struct child and deleted rows.
    ds = backfill(backfill(backfill(ds, "f", 7), "g", 2), "h", 3).dropColumns("st.b").delete("id % 13 = 0");
    List<List<String>> before = javelinScan(ds);
    Dataset after = ds.compact(FORCE_REPACK);
    assertThat(after.version()).isEqualTo(ds.version() + 1);
    assertThat(fileCounts(after)).containsExactly(1, 1, 1, 1, 1);
    assertSameRows(javelinScan(after), before);
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      assertThat(lance.version()).isEqualTo(after.version());
      assertSameRows(lanceScan(lance), before);
      assertThat(lance.countRows()).isEqualTo(before.size());
      lance.compact(org.lance.compaction.CompactionOptions.builder().withTargetRowsPerFragment(5000).build());
      lance.checkoutLatest();
      assertThat(lance.getFragments()).hasSize(1);
      assertSameRows(lanceScan(lance), before);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"2.0", "2.1"})
  void javelinZipsFilesLanceWroteAndLanceReadsThem(String version) throws Exception {
    Path path = dir.resolve("ds");
    List<VectorSchemaRoot> data = batches(allocator, 0, 1500, 500);
    try (ArrowReader reader = readerOf(allocator, data)) {
      org.lance.Dataset.write().allocator(allocator).reader(reader).uri(path.toString())
          .mode(org.lance.WriteParams.WriteMode.CREATE).maxRowsPerFile(500).dataStorageVersion(version)
          .execute().close();
    } finally {
      data.forEach(VectorSchemaRoot::close);
    }
    List<List<String>> before;
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      lance.addColumns(new SqlExpressions.Builder().withExpression("f", "id + 7").build(), Optional.empty());
      lance.addColumns(new SqlExpressions.Builder().withExpression("h", "concat(s, 'h')").build(), Optional.empty());
      before = lanceScan(lance);
    }
    Dataset ds = Dataset.open(path, allocator);
    assertThat(fileCounts(ds)).containsExactly(3, 3, 3);
    Dataset after = ds.compact(FORCE_REPACK);
    assertThat(fileCounts(after)).containsExactly(1, 1, 1);
    assertSameRows(javelinScan(after), before);
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      assertThat(lance.version()).isEqualTo(after.version());
      assertSameRows(lanceScan(lance), before);
    }
  }
}
