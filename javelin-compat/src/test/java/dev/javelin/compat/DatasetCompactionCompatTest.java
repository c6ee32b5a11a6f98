package dev.javelin.compat;

import static dev.javelin.compat.DatasetCompatSupport.assertSameRows;
import static dev.javelin.compat.DatasetCompatSupport.batches;
import static dev.javelin.compat.DatasetCompatSupport.javelinScan;
import static dev.javelin.compat.DatasetCompatSupport.readAll;
import static dev.javelin.compat.DatasetCompatSupport.readerOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.core.Dataset;
import dev.javelin.core.WriteParams;
import dev.javelin.core.compaction.CompactionOptions;
import dev.javelin.core.compaction.CompactionScope;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.exceptions.UnsupportedFormatException;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lance.ipc.ScanOptions;
import org.lance.schema.SqlExpressions;

/**
 * Compaction both ways: lance-core 7.0.0 reads datasets Javelin compacted (fragment rewrites,
 * ReserveFragments + Rewrite) and repacked (DataReplacement with data_change false, several
 * files per fragment folded into one) and compacts them itself; Javelin repacks a dataset
 * lance-core backfilled; stale lance-core writers commit on top of a Javelin repack.
 */
class DatasetCompactionCompatTest {
  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  private static List<List<String>> lanceScan(org.lance.Dataset lance) throws Exception {
    try (var scanner = lance.newScan(new ScanOptions.Builder().batchSize(700).build())) {
      return readAll(scanner.scanBatches());
    }
  }

  private static List<List<String>> sortedById(List<List<String>> rows) {
    List<List<String>> out = new ArrayList<>(rows);
    out.sort(java.util.Comparator.comparingLong(r -> Long.parseLong(r.get(0))));
    return out;
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

  private Dataset javelinBackfilled(Path path, LanceFileVersion v) {
    List<VectorSchemaRoot> data = batches(allocator, 0, 2500, 700);
    Dataset ds;
    try {
      ds = Dataset.create(path, data, WriteParams.builder().fileVersion(v).maxRowsPerFile(500).build(), allocator);
    } finally {
      data.forEach(VectorSchemaRoot::close);
    }
    return backfill(backfill(ds, "f", 7), "g", 2);
  }

  private static List<Integer> fileCounts(Dataset ds) {
    List<Integer> out = new ArrayList<>();
    ds.columnLayoutStats().fragments().forEach(f -> out.add(f.dataFiles()));
    return out;
  }

  @ParameterizedTest
  @ValueSource(strings = {"2.0", "2.1"})
  void lanceReadsAJavelinCompactedAndRepackedDatasetAndCompactsIt(String version) throws Exception {
    Path path = dir.resolve("ds");
    LanceFileVersion v = version.equals("2.0") ? LanceFileVersion.V2_0 : LanceFileVersion.V2_1;
    Dataset ds = javelinBackfilled(path, v).delete("id < 200");
    List<List<String>> before = javelinScan(ds);
    // Fragment 0 (40% deleted) is rewritten, the others (500 rows, three files each) repacked.
    Dataset after = ds.compact(CompactionOptions.builder().targetRowsPerFragment(500).maxDataFilesPerFragment(1)
        .build());
    assertThat(after.version()).isEqualTo(ds.version() + 3);
    assertThat(fileCounts(after)).containsExactly(1, 1, 1, 1, 1);
    assertThat(after.manifest().fragments()).extracting(dev.javelin.table.Fragment::id).containsExactly(1L, 2L, 3L,
        4L, 5L);
    before = sortedById(before);
    assertSameRows(sortedById(javelinScan(after)), before);
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      assertThat(lance.version()).isEqualTo(after.version());
      assertSameRows(sortedById(lanceScan(lance)), before);
      assertThat(lance.countRows()).isEqualTo(2300);
      // Time travel to before the compaction still reads.
      try (org.lance.Dataset old = lance.checkoutVersion(ds.version())) {
        assertSameRows(lanceScan(old), before);
      }
      lance.compact(org.lance.compaction.CompactionOptions.builder().withTargetRowsPerFragment(5000).build());
      lance.checkoutLatest();
      assertThat(lance.getFragments()).hasSize(1);
      assertSameRows(sortedById(lanceScan(lance)), before);
    }
    assertSameRows(sortedById(javelinScan(Dataset.open(path, allocator))), before);
  }

  @ParameterizedTest
  @ValueSource(strings = {"2.0", "2.1"})
  void javelinRepacksADatasetLanceBackfilled(String version) throws Exception {
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
      lance.addColumns(new SqlExpressions.Builder().withExpression("g", "id * 2").build(), Optional.empty());
      lance.addColumns(new SqlExpressions.Builder().withExpression("h", "concat(s, 'h')").build(), Optional.empty());
      before = lanceScan(lance);
    }
    Dataset ds = Dataset.open(path, allocator);
    assertThat(fileCounts(ds)).containsExactly(4, 4, 4);
    Dataset after = ds.compact(CompactionOptions.builder().scope(CompactionScope.REPACK_COLUMNS)
        .maxDataFilesPerFragment(2).build());
    assertThat(fileCounts(after)).containsExactly(2, 2, 2);
    assertSameRows(javelinScan(after), before);
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      assertThat(lance.version()).isEqualTo(after.version());
      assertSameRows(lanceScan(lance), before);
      lance.addColumns(new SqlExpressions.Builder().withExpression("k", "id - 1").build(), Optional.empty());
      assertThat(lance.countRows()).isEqualTo(1500);
    }
  }

  @Test
  void staleLanceDeleteAndAppendCommitOnTopOfAJavelinRepack() throws Exception {
    Path path = dir.resolve("ds");
    Dataset ds = javelinBackfilled(path, LanceFileVersion.V2_1);
    List<List<String>> all = javelinScan(ds);
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      Dataset repacked = ds.compact(CompactionOptions.builder().scope(CompactionScope.REPACK_COLUMNS)
          .maxDataFilesPerFragment(1).build());
      assertThat(repacked.version()).isEqualTo(ds.version() + 1);
      lance.delete("id >= 600 AND id < 650"); // read before the repack: lance-core retries over it
      assertThat(lance.version()).isEqualTo(repacked.version() + 1);
      assertThat(lance.countRows()).isEqualTo(2450);
    }
    Dataset latest = Dataset.open(path, allocator);
    assertThat(fileCounts(latest)).containsExactly(1, 1, 1, 1, 1);
    List<List<String>> want = new ArrayList<>();
    for (List<String> r : all) {
      long id = Long.parseLong(r.get(0));
      if (id < 600 || id >= 650) {
        want.add(r);
      }
    }
    assertSameRows(javelinScan(latest), want);
    // A lance-core handle opened before the repack appends (and rebases over it).
    try (org.lance.Dataset stale = org.lance.Dataset.open(path.toString(), allocator).checkoutVersion(ds.version())) {
      assertThat(stale.version()).isEqualTo(ds.version());
      List<VectorSchemaRoot> more = batches(allocator, 2500, 100, 100);
      try (ArrowReader reader = readerOf(allocator, more)) {
        org.lance.Dataset.write().allocator(allocator).reader(reader).uri(path.toString())
            .mode(org.lance.WriteParams.WriteMode.APPEND).execute().close();
      } catch (RuntimeException e) {
        throw e;
      } finally {
        more.forEach(VectorSchemaRoot::close);
      }
    }
    latest = Dataset.open(path, allocator);
    assertThat(latest.countRows()).isEqualTo(2550);
    assertThat(fileCounts(latest).subList(0, 5)).containsExactly(1, 1, 1, 1, 1);
    assertSameRows(javelinScan(latest).subList(0, want.size()), want);
  }

  @Test
  void repackKeepsALanceScalarIndexAndARewriteRemapsIt() throws Exception {
    Path path = dir.resolve("ds");
    Dataset ds = javelinBackfilled(path, LanceFileVersion.V2_1).delete("id < 200");
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      lance.createIndex(List.of("f"), org.lance.index.IndexType.BTREE, Optional.of("f_idx"),
          org.lance.index.IndexParams.builder().setScalarIndexParams(
              new org.lance.index.scalar.BTreeIndexParams.Builder().build()).build(), true);
    }
    Dataset indexed = Dataset.open(path, allocator);
    assertThat(indexed.manifest().indices()).hasSize(1);
    List<List<String>> before = sortedById(javelinScan(indexed));
    CompactionOptions both = CompactionOptions.builder().targetRowsPerFragment(500).maxDataFilesPerFragment(1).build();
    // A repack alone keeps the index as it is.
    Dataset repacked = indexed.compact(both.toBuilder().scope(CompactionScope.REPACK_COLUMNS).build());
    assertThat(fileCounts(repacked)).containsExactly(1, 1, 1, 1, 1);
    assertThat(repacked.manifest().indices()).isEqualTo(indexed.manifest().indices()); // uuid and coverage kept
    // Then the rewrite of fragment 0 (40% deleted) remaps lance-core's BTree to the new fragment.
    Dataset after = repacked.compact(both);
    assertThat(fileCounts(after)).containsExactly(1, 1, 1, 1, 1);
    String oldUuid = indexed.indices().get(0).uuid();
    assertThat(after.indices().get(0).uuid()).isNotEqualTo(oldUuid);
    List<Long> ids = new ArrayList<>();
    after.manifest().fragments().forEach(f -> ids.add(f.id()));
    assertThat(after.indices().get(0).fragments()).containsExactlyInAnyOrderElementsOf(ids);
    assertSameRows(sortedById(javelinScan(after)), before);
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      assertThat(lance.listIndexes()).containsExactly("f_idx");
      assertThat(lance.getIndexes().get(0).uuid().toString()).isEqualTo(after.indices().get(0).uuid());
      assertSameRows(sortedById(lanceScan(lance)), before);
      assertThat(lance.countRows("f = 2107")).isEqualTo(1); // id 301, through the remapped index
      assertThat(lance.countRows("f < 1400")).isZero(); // ids below 200 are deleted
      try (var scanner = lance.newScan(new ScanOptions.Builder().filter("f >= 3493 AND f <= 3507").build())) {
        assertThat(readAll(scanner.scanBatches())).extracting(r -> r.get(0)).containsExactlyInAnyOrder("499", "500",
            "501");
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"2.0", "2.1"})
  void repackWithADroppedStructChildConvergesAndLanceReadsIt(String version) throws Exception {
    Path path = dir.resolve("ds");
    LanceFileVersion v = version.equals("2.0") ? LanceFileVersion.V2_0 : LanceFileVersion.V2_1;
    Dataset ds = javelinBackfilled(path, v).dropColumns("st.b", "x");
    List<List<String>> before = javelinScan(ds);
    CompactionOptions one = CompactionOptions.builder().scope(CompactionScope.REPACK_COLUMNS)
        .maxDataFilesPerFragment(1).build();
    Dataset after = ds.compact(one);
    assertThat(fileCounts(after)).containsExactly(1, 1, 1, 1, 1);
    assertSameRows(javelinScan(after), before);
    // The copied struct keeps its dropped child's slot as a tombstone; a second run plans nothing.
    assertThat(after.compact(one).version()).isEqualTo(after.version());
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      assertSameRows(lanceScan(lance), before);
    }
  }

  @Test
  void lanceTakesStableRowIdsAJavelinRewriteCarried() throws Exception {
    Path path = dir.resolve("ds");
    List<VectorSchemaRoot> data = batches(allocator, 0, 1200, 300);
    Dataset ds;
    try {
      ds = Dataset.create(path, data, WriteParams.builder().maxRowsPerFile(300).enableStableRowIds(true).build(),
          allocator);
    } finally {
      data.forEach(VectorSchemaRoot::close);
    }
    List<List<String>> before = javelinScan(ds);
    Dataset after = ds.compact(CompactionOptions.builder().targetRowsPerFragment(500).build());
    assertThat(after.manifest().fragments()).extracting(dev.javelin.table.Fragment::physicalRows)
        .containsExactly(500L, 100L, 500L, 100L); // two runs of 600 rows, files cut at 500
    assertSameRows(javelinScan(after), before);
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      assertSameRows(lanceScan(lance), before);
      try (ArrowReader r = lance.takeRows(List.of(0L, 499L, 500L, 1199L), List.of("id"))) {
        assertThat(readAll(r)).containsExactly(List.of("0"), List.of("499"), List.of("500"), List.of("1199"));
      }
      lance.delete("id < 10");
      try (ArrowReader r = lance.takeRows(List.of(10L, 777L), List.of("id"))) {
        assertThat(readAll(r)).containsExactly(List.of("10"), List.of("777"));
      }
    }
  }
}
