package dev.javelin.compat;

import static dev.javelin.compat.DatasetCompatSupport.assertSameRows;
import static dev.javelin.compat.DatasetCompatSupport.batches;
import static dev.javelin.compat.DatasetCompatSupport.javelinScan;
import static dev.javelin.compat.DatasetCompatSupport.readAll;
import static dev.javelin.compat.DatasetCompatSupport.readerOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.core.Dataset;
import dev.javelin.core.MergeInsertBuilder;
import dev.javelin.core.MergeInsertResult;
import dev.javelin.core.WriteParams;
import dev.javelin.core.exceptions.MergeInsertException;
import dev.javelin.testing.TestAllocator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.lance.compaction.CompactionOptions;
import org.lance.ipc.ScanOptions;
import org.lance.merge.MergeInsertParams;
import org.lance.merge.MergeInsertStats;

/**
 * Javelin's merge insert against lance-core 7.0.0's {@code mergeInsert} on copies of the same
 * dataset with the same source: the same rows, the same counts and, with stable row ids, the same
 * {@code _rowid} per key; and lance-core reads, merges into and compacts what Javelin merged.
 */
class MergeInsertCompatTest {
  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  private Dataset create(Path path, boolean stableRowIds) {
    List<VectorSchemaRoot> data = batches(allocator, 0, 3000, 1000);
    try {
      return Dataset.create(path, data, WriteParams.builder().maxRowsPerFile(1000).enableStableRowIds(stableRowIds)
          .build(), allocator);
    } finally {
      data.forEach(VectorSchemaRoot::close);
    }
  }

  private static void copy(Path from, Path to) throws IOException {
    try (Stream<Path> all = Files.walk(from)) {
      for (Path p : (Iterable<Path>) all::iterator) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
  }

  // Full rows for ids [start, start + n) with x = id - 0.5 for even ids, -1 for odd ones, s = 'src'.
  private List<VectorSchemaRoot> source(long start, int n) {
    List<VectorSchemaRoot> out = batches(allocator, start, n, 300);
    for (VectorSchemaRoot b : out) {
      Float8Vector x = (Float8Vector) b.getVector("x");
      VarCharVector s = (VarCharVector) b.getVector("s");
      BigIntVector id = (BigIntVector) b.getVector("id");
      for (int i = 0; i < b.getRowCount(); i++) {
        x.setSafe(i, id.get(i) % 2 == 0 ? id.get(i) - 0.5 : -1.0);
        s.setSafe(i, "src".getBytes(java.nio.charset.StandardCharsets.UTF_8));
      }
    }
    return out;
  }

  private ArrowArrayStream toStream(ArrowReader reader) {
    ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator);
    Data.exportArrayStream(allocator, reader, stream);
    return stream;
  }

  private static List<List<String>> lanceScan(org.lance.Dataset lance) throws Exception {
    try (var scanner = lance.newScan(new ScanOptions.Builder().batchSize(700).build())) {
      return sortedById(readAll(scanner.scanBatches()));
    }
  }

  private static List<List<String>> sortedById(List<List<String>> rows) {
    List<List<String>> out = new ArrayList<>(rows);
    out.sort(Comparator.comparing(r -> Long.parseLong(r.get(0))));
    return out;
  }

  /** id -> _rowid, as lance-core scans them. */
  private static Map<Long, Long> lanceRowIds(org.lance.Dataset lance) throws Exception {
    try (var scanner = lance.newScan(new ScanOptions.Builder().columns(List.of("id")).withRowId(true).build());
        ArrowReader r = scanner.scanBatches()) {
      return rowIds(r);
    }
  }

  private static Map<Long, Long> rowIds(ArrowReader r) throws IOException {
    Map<Long, Long> out = new TreeMap<>();
    while (r.loadNextBatch()) {
      VectorSchemaRoot b = r.getVectorSchemaRoot();
      BigIntVector id = (BigIntVector) b.getVector("id");
      FieldVector rowId = b.getVector("_rowid");
      for (int i = 0; i < b.getRowCount(); i++) {
        out.put(id.get(i), ((UInt8Vector) rowId).get(i));
      }
    }
    return out;
  }

  /**
   * Runs the same merge both ways on copies of one dataset and compares rows, counts and, with
   * stable row ids, row ids.
   */
  @ParameterizedTest(name = "{0} stable={1}")
  @CsvSource({
      "upsert, false", "upsert, true",
      "updateIf, false", "updateIf, true",
      "insertOnly, false",
      "deleteMatched, false",
      "replaceAll, false", "replaceAll, true",
      "replaceRange, false"})
  void sameResultAsLanceCore(String clauses, boolean stableRowIds) throws Exception {
    Path ours = dir.resolve("ours");
    Path theirs = dir.resolve("theirs");
    Dataset ds = create(ours, stableRowIds);
    copy(ours, theirs);

    UnaryOperator<MergeInsertBuilder> javelin;
    Function<MergeInsertParams, MergeInsertParams> lance;
    switch (clauses) {
      case "upsert" -> {
        javelin = b -> b.whenMatchedUpdateAll().whenNotMatchedInsertAll();
        lance = p -> p.withMatchedUpdateAll();
      }
      case "updateIf" -> {
        javelin = b -> b.whenMatchedUpdateIf("source.x > target.x").whenNotMatchedInsertAll();
        lance = p -> p.withMatchedUpdateIf("source.x > target.x");
      }
      case "insertOnly" -> {
        javelin = b -> b;
        lance = p -> p.withMatchedDoNothing();
      }
      case "deleteMatched" -> {
        javelin = b -> b.whenMatchedDelete().whenNotMatchedDoNothing();
        lance = p -> p.withMatchedDelete().withNotMatched(MergeInsertParams.WhenNotMatched.DoNothing);
      }
      case "replaceAll" -> {
        javelin = b -> b.whenMatchedUpdateAll().whenNotMatchedBySourceDelete();
        lance = p -> p.withMatchedUpdateAll().withNotMatchedBySourceDelete();
      }
      default -> {
        javelin = b -> b.whenMatchedUpdateAll().whenNotMatchedBySourceDeleteIf("id >= 2000");
        lance = p -> p.withMatchedUpdateAll().withNotMatchedBySourceDeleteIf("id >= 2000");
      }
    }

    MergeInsertResult mine;
    List<VectorSchemaRoot> src = source(2500, 1000);
    try (ArrowReader r = readerOf(allocator, src)) {
      mine = javelin.apply(ds.mergeInsert(r).on("id")).commit();
    } finally {
      src.forEach(VectorSchemaRoot::close);
    }
    MergeInsertStats stats;
    src = source(2500, 1000);
    try (org.lance.Dataset lanceDs = org.lance.Dataset.open(theirs.toString(), allocator);
        ArrowReader r = readerOf(allocator, src); ArrowArrayStream stream = toStream(r)) {
      var result = lanceDs.mergeInsert(lance.apply(new MergeInsertParams(List.of("id"))), stream);
      result.dataset().close();
      stats = result.stats();
    } finally {
      src.forEach(VectorSchemaRoot::close);
    }
    try (org.lance.Dataset lanceDs = org.lance.Dataset.open(theirs.toString(), allocator)) {
      List<List<String>> lanceRows = lanceScan(lanceDs);
      assertSameRows(sortedById(javelinScan(mine.dataset())), lanceRows);
      if (stableRowIds) {
        Map<Long, Long> lanceIds = lanceRowIds(lanceDs);
        Map<Long, Long> ourIds;
        try (ArrowReader r = mine.dataset().newScan().columns("id").withRowId().build()) {
          ourIds = rowIds(r);
        }
        assertThat(ourIds.keySet()).isEqualTo(lanceIds.keySet());
        // Rows that existed keep their ids on both sides; inserted ones take the same new ids.
        lanceIds.forEach((id, rowId) -> {
          if (id < 3000) {
            assertThat(ourIds.get(id)).as("_rowid of %d", id).isEqualTo(rowId);
          }
        });
        assertThat(ourIds.values().stream().sorted().toList())
            .isEqualTo(lanceIds.values().stream().sorted().toList());
      }
    }
    assertThat(mine.rowsInserted()).as("inserted").isEqualTo(stats.numInsertedRows());
    assertThat(mine.rowsUpdated()).as("updated").isEqualTo(stats.numUpdatedRows());
    assertThat(mine.rowsDeleted()).as("deleted").isEqualTo(stats.numDeletedRows());
  }

  @Test
  void theCountsAreLanceCoresToo() throws Exception {
    Path ours = dir.resolve("ours");
    Path theirs = dir.resolve("theirs");
    Dataset ds = create(ours, false);
    copy(ours, theirs);
    MergeInsertResult mine;
    List<VectorSchemaRoot> src = source(2500, 1000);
    try (ArrowReader r = readerOf(allocator, src)) {
      mine = ds.mergeInsert(r).on("id").whenMatchedUpdateAll().whenNotMatchedBySourceDeleteIf("id < 100").commit();
    } finally {
      src.forEach(VectorSchemaRoot::close);
    }
    src = source(2500, 1000);
    try (org.lance.Dataset lanceDs = org.lance.Dataset.open(theirs.toString(), allocator);
        ArrowReader r = readerOf(allocator, src); ArrowArrayStream stream = toStream(r)) {
      var result = lanceDs.mergeInsert(new MergeInsertParams(List.of("id")).withMatchedUpdateAll()
          .withNotMatchedBySourceDeleteIf("id < 100"), stream);
      result.dataset().close();
      MergeInsertStats stats = result.stats();
      assertThat(mine.rowsInserted()).isEqualTo(stats.numInsertedRows()).isEqualTo(500);
      assertThat(mine.rowsUpdated()).isEqualTo(stats.numUpdatedRows()).isEqualTo(500);
      assertThat(mine.rowsDeleted()).isEqualTo(stats.numDeletedRows()).isEqualTo(100);
    } finally {
      src.forEach(VectorSchemaRoot::close);
    }
  }

  @Test
  void lanceCoreReadsMergesIntoAndCompactsWhatJavelinMerged() throws Exception {
    Path path = dir.resolve("ds");
    Dataset ds = create(path, true);
    List<VectorSchemaRoot> src = source(2500, 1000);
    try (ArrowReader r = readerOf(allocator, src)) {
      ds = ds.mergeInsert(r).on("id").whenMatchedUpdateAll().commit().dataset();
    } finally {
      src.forEach(VectorSchemaRoot::close);
    }
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      assertThat(lance.version()).isEqualTo(ds.version());
      assertThat(lance.countRows()).isEqualTo(3500);
      assertThat(lance.countRows("s = 'src'")).isEqualTo(1000);
      assertSameRows(lanceScan(lance), sortedById(javelinScan(ds)));
      src = source(3400, 200);
      try (ArrowReader r = readerOf(allocator, src); ArrowArrayStream stream = toStream(r)) {
        MergeInsertStats stats = lance.mergeInsert(new MergeInsertParams(List.of("id")).withMatchedUpdateAll(),
            stream).stats();
        assertThat(stats.numUpdatedRows()).isEqualTo(100);
        assertThat(stats.numInsertedRows()).isEqualTo(100);
      } finally {
        src.forEach(VectorSchemaRoot::close);
      }
      lance.checkoutLatest();
      lance.compact(CompactionOptions.builder().withTargetRowsPerFragment(10_000).build());
      lance.checkoutLatest();
      assertThat(lance.countRows()).isEqualTo(3600);
      Dataset latest = Dataset.open(path, allocator);
      assertSameRows(sortedById(javelinScan(latest)), lanceScan(lance));
      assertThat(rowIdsOf(latest)).isEqualTo(lanceRowIds(lance));
    }
  }

  private static Map<Long, Long> rowIdsOf(Dataset ds) throws IOException {
    try (ArrowReader r = ds.newScan().columns("id").withRowId().build()) {
      return rowIds(r);
    }
  }

  @Test
  void duplicateSourceKeysFailOnBothSides() throws Exception {
    Path path = dir.resolve("ds");
    Dataset ds = create(path, false);
    List<VectorSchemaRoot> src = new ArrayList<>(source(10, 5));
    src.addAll(source(12, 1));
    try (ArrowReader r = readerOf(allocator, src)) {
      assertThatThrownBy(() -> ds.mergeInsert(r).on("id").whenMatchedUpdateAll().commit())
          .isInstanceOf(MergeInsertException.class).hasMessageContaining("key id=12");
    }
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator);
        ArrowReader r = readerOf(allocator, src); ArrowArrayStream stream = toStream(r)) {
      assertThatThrownBy(() -> lance.mergeInsert(new MergeInsertParams(List.of("id")).withMatchedUpdateAll(),
          stream)).isInstanceOf(RuntimeException.class);
    } finally {
      src.forEach(VectorSchemaRoot::close);
    }
  }
}
