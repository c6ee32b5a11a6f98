package dev.javelin.compat;

import static dev.javelin.compat.DatasetCompatSupport.assertSameRows;
import static dev.javelin.compat.DatasetCompatSupport.batches;
import static dev.javelin.compat.DatasetCompatSupport.expected;
import static dev.javelin.compat.DatasetCompatSupport.javelinScan;
import static dev.javelin.compat.DatasetCompatSupport.readAll;
import static dev.javelin.compat.DatasetCompatSupport.readerOf;
import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.core.Dataset;
import dev.javelin.core.UpdateResult;
import dev.javelin.core.WriteParams;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.table.OperationKind;
import dev.javelin.testing.Readers;
import dev.javelin.testing.TestAllocator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongPredicate;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lance.ipc.ScanOptions;
import org.lance.merge.MergeInsertParams;
import org.lance.schema.SqlExpressions;

/**
 * Updates both ways: Javelin's row-rewriting and column-rewriting Updates read by lance-core
 * 7.0.0, which then deletes and updates more; lance-core's updates (merge-insert, the only update
 * its Java API has) read by Javelin; and columns added from the same SQL expressions by both.
 */
class DatasetUpdateCompatTest {
  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  private Dataset javelinCreate(Path path, LanceFileVersion v, int rows, int perFile) {
    List<VectorSchemaRoot> data = batches(allocator, 0, rows, 1000);
    try {
      return Dataset.create(path, data, WriteParams.builder().fileVersion(v).maxRowsPerFile(perFile).build(),
          allocator);
    } finally {
      data.forEach(VectorSchemaRoot::close);
    }
  }

  private void lanceCreate(Path path, String version, int rows, int perFile) throws Exception {
    List<VectorSchemaRoot> data = batches(allocator, 0, rows, 1000);
    try (ArrowReader reader = readerOf(allocator, data)) {
      org.lance.Dataset.write().allocator(allocator).reader(reader).uri(path.toString())
          .mode(org.lance.WriteParams.WriteMode.CREATE).maxRowsPerFile(perFile).dataStorageVersion(version)
          .execute().close();
    } finally {
      data.forEach(VectorSchemaRoot::close);
    }
  }

  private static List<List<String>> lanceScan(org.lance.Dataset lance) throws Exception {
    try (var scanner = lance.newScan(new ScanOptions.Builder().batchSize(700).build())) {
      return readAll(scanner.scanBatches());
    }
  }

  private static List<List<String>> sortedById(List<List<String>> rows) {
    List<List<String>> out = new ArrayList<>(rows);
    out.sort(Comparator.comparing(r -> Long.parseLong(r.get(0))));
    return out;
  }

  /** Rows 0..n-1 where the chosen ids have x = f(x) and s = the given text; deleted ids left out. */
  private List<List<String>> want(int n, LongPredicate updated, java.util.function.DoubleUnaryOperator x, String s,
      LongPredicate deleted) {
    List<List<String>> out = new ArrayList<>();
    for (List<String> r : expected(allocator, 0, n)) {
      long id = Long.parseLong(r.get(0));
      if (deleted.test(id)) {
        continue;
      }
      List<String> row = new ArrayList<>(r);
      if (updated.test(id)) {
        row.set(1, r.get(1) == null ? null : String.valueOf(x.applyAsDouble(Double.parseDouble(r.get(1)))));
        row.set(2, s);
      }
      out.add(row);
    }
    return out;
  }

  @ParameterizedTest
  @ValueSource(strings = {"V2_0", "V2_1", "V2_2"})
  void lanceReadsJavelinUpdatesThenDeletesAndUpdatesMore(String version) throws Exception {
    Path path = dir.resolve("ds");
    Dataset ds = javelinCreate(path, LanceFileVersion.valueOf(version), 3000, 1000);
    Map<String, String> set = new LinkedHashMap<>();
    set.put("x", "x * 2");
    set.put("s", "'u'");
    UpdateResult rows = ds.update("id >= 500 AND id < 1500", set);
    assertThat(rows.rowsUpdated()).isEqualTo(1000);
    UpdateResult cols = rows.dataset().updateColumns("id >= 2500", Map.of("s", "'c'"));
    assertThat(cols.rowsUpdated()).isEqualTo(500);
    ds = cols.dataset();
    List<List<String>> want = want(3000, id -> id >= 500 && id < 1500, v -> v * 2, "u", id -> false);
    for (List<String> r : want) {
      if (Long.parseLong(r.get(0)) >= 2500) {
        r.set(2, "c");
      }
    }
    List<List<String>> ours = javelinScan(ds);
    assertSameRows(sortedById(ours), want);
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      assertThat(lance.version()).isEqualTo(ds.version());
      assertThat(lance.countRows()).isEqualTo(3000);
      assertThat(lance.countRows("s = 'u'")).isEqualTo(1000);
      assertThat(lance.countRows("s = 'c'")).isEqualTo(500);
      assertSameRows(lanceScan(lance), ours);
      // lance-core deletes some updated rows and updates others itself (merge-insert by id).
      lance.delete("id >= 1400 AND id < 1600");
      List<VectorSchemaRoot> xs = newXs(100, 200);
      try (ArrowReader src = readerOf(allocator, xs); ArrowArrayStream stream = toStream(src)) {
        lance.mergeInsert(new MergeInsertParams(List.of("id")).withMatchedUpdateAll(), stream).dataset().close();
      } finally {
        xs.forEach(VectorSchemaRoot::close);
      }
      lance.checkoutLatest();
      assertThat(lance.countRows()).isEqualTo(2800);
      Dataset latest = Dataset.open(path, allocator);
      assertThat(latest.countRows()).isEqualTo(2800);
      assertSameRows(javelinScan(latest), lanceScan(lance));
      assertThat(latest.countRows("x = -1.0")).isEqualTo(200);
    }
  }

  // Full rows for ids [start, start + n) with x = -1 and s = 'lance' (the same l and st).
  private List<VectorSchemaRoot> newXs(long start, int n) {
    List<VectorSchemaRoot> out = batches(allocator, start, n, n);
    VectorSchemaRoot b = out.get(0);
    Float8Vector x = (Float8Vector) b.getVector("x");
    VarCharVector s = (VarCharVector) b.getVector("s");
    for (int i = 0; i < n; i++) {
      x.setSafe(i, -1.0);
      s.setSafe(i, "lance".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
    return out;
  }

  private ArrowArrayStream toStream(ArrowReader reader) {
    ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator);
    Data.exportArrayStream(allocator, reader, stream);
    return stream;
  }

  @ParameterizedTest
  @ValueSource(strings = {"2.0", "2.1"})
  void javelinReadsLanceUpdatesAndUpdatesOnTop(String version) throws Exception {
    Path path = dir.resolve("ds");
    lanceCreate(path, version, 3000, 1000);
    List<VectorSchemaRoot> src = newXs(900, 300);
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator);
        ArrowReader reader = readerOf(allocator, src); ArrowArrayStream stream = toStream(reader)) {
      lance.mergeInsert(new MergeInsertParams(List.of("id")).withMatchedUpdateAll(), stream).dataset().close();
    } finally {
      src.forEach(VectorSchemaRoot::close);
    }
    Dataset ds = Dataset.open(path, allocator);
    List<dev.javelin.core.VersionInfo> versions = ds.versions();
    assertThat(versions.get(versions.size() - 1).operation()).isEqualTo(OperationKind.UPDATE.displayName());
    List<List<String>> want = want(3000, id -> id >= 900 && id < 1200, v -> -1.0, "lance", id -> false);
    // Null x values were replaced too.
    for (List<String> r : want) {
      long id = Long.parseLong(r.get(0));
      if (id >= 900 && id < 1200) {
        r.set(1, "-1.0");
      }
    }
    List<List<String>> ours = javelinScan(ds);
    assertSameRows(sortedById(ours), want);
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      assertSameRows(lanceScan(lance), ours);
    }
    // Javelin updates lance-core's rewritten rows again; lance-core reads the result.
    Dataset after = ds.update("s = 'lance'", Map.of("x", "x - 1")).dataset();
    assertThat(after.countRows("x = -2.0")).isEqualTo(300);
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      assertThat(lance.countRows("x = -2.0")).isEqualTo(300);
      assertSameRows(lanceScan(lance), javelinScan(after));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"2.0", "2.1"})
  void javelinReadsLancePartialMergeInsertAndRewritesColumnsOnTop(String version) throws Exception {
    Path path = dir.resolve("ds");
    lanceCreate(path, version, 3000, 1000);
    org.apache.arrow.vector.types.pojo.Schema idX = new org.apache.arrow.vector.types.pojo.Schema(
        DatasetCompatSupport.SCHEMA.getFields().subList(0, 2));
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator);
        VectorSchemaRoot part = VectorSchemaRoot.create(idX, allocator)) {
      lance.delete("id % 100 = 0");
      // A source with a subset of the columns.
      part.allocateNew();
      for (int i = 0; i < 150; i++) {
        ((org.apache.arrow.vector.BigIntVector) part.getVector("id")).setSafe(i, 1950 + i);
        ((Float8Vector) part.getVector("x")).setSafe(i, -3.0);
      }
      part.setRowCount(150);
      try (ArrowReader reader = Readers.readerOf(allocator, idX, List.of(part));
          ArrowArrayStream stream = toStream(reader)) {
        lance.mergeInsert(new MergeInsertParams(List.of("id")).withMatchedUpdateAll()
            .withNotMatched(MergeInsertParams.WhenNotMatched.DoNothing), stream).dataset().close();
      }
    }
    Dataset ds = Dataset.open(path, allocator);
    List<List<String>> want = want(3000, id -> false, v -> v, null, id -> id % 100 == 0);
    for (List<String> r : want) {
      long id = Long.parseLong(r.get(0));
      if (id >= 1950 && id < 2100) {
        r.set(1, "-3.0");
      }
    }
    // 7.0.0 moves the rows (its merge-insert rewrites whole rows even for a partial source).
    List<List<String>> ours = javelinScan(ds);
    assertSameRows(sortedById(ours), want);
    // Javelin rewrites x again over lance-core's files; lance-core reads the result.
    Dataset after = ds.updateColumns("x < 0", Map.of("x", "x * 10")).dataset();
    assertThat(after.countRows("x = -30.0")).isEqualTo(149);
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      assertThat(lance.countRows("x = -30.0")).isEqualTo(149);
      assertSameRows(lanceScan(lance), javelinScan(after));
    }
  }

  @org.junit.jupiter.api.Test
  void staleJavelinUpdateMergesOverLanceUpdateOfOtherRowsOfTheSameFragment() throws Exception {
    Path path = dir.resolve("ds");
    Dataset v1 = javelinCreate(path, LanceFileVersion.V2_1, 1000, 1000);
    List<VectorSchemaRoot> xs = newXs(0, 10);
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator);
        ArrowReader src = readerOf(allocator, xs); ArrowArrayStream stream = toStream(src)) {
      lance.mergeInsert(new MergeInsertParams(List.of("id")).withMatchedUpdateAll(), stream).dataset().close();
    } finally {
      xs.forEach(VectorSchemaRoot::close);
    }
    // Read version 1: rebased over lance-core's Update (deletion vectors of fragment 0 merged).
    UpdateResult r = v1.update("id >= 500 AND id < 520", Map.of("s", "'javelin'"));
    assertThat(r.rowsUpdated()).isEqualTo(20);
    assertThat(r.dataset().version()).isEqualTo(3);
    assertThat(r.dataset().manifest().fragments().get(0).deletionFile().orElseThrow().numDeletedRows()).isEqualTo(30);
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      assertThat(lance.countRows()).isEqualTo(1000);
      assertThat(lance.countRows("s = 'lance'")).isEqualTo(10);
      assertThat(lance.countRows("s = 'javelin'")).isEqualTo(20);
      assertSameRows(lanceScan(lance), javelinScan(r.dataset()));
    }
    // A stale update of rows lance-core moved is redone on the newest version.
    UpdateResult again = v1.update("id < 5", Map.of("x", "7.0"));
    assertThat(again.rowsUpdated()).isEqualTo(5);
    assertThat(again.dataset().version()).isEqualTo(4);
    assertThat(again.dataset().countRows("x = 7.0 AND s = 'lance'")).isEqualTo(5);
  }

  @org.junit.jupiter.api.Test
  void lanceSeesTheStableRowIdsOfRowsJavelinMoved() throws Exception {
    Path path = dir.resolve("ds");
    List<VectorSchemaRoot> data = batches(allocator, 0, 3000, 1000);
    Dataset ds;
    try {
      ds = Dataset.create(path, data, WriteParams.builder().maxRowsPerFile(1000).enableStableRowIds(true).build(),
          allocator);
    } finally {
      data.forEach(VectorSchemaRoot::close);
    }
    ds = ds.update("id >= 900 AND id < 1100", Map.of("s", "'u'")).dataset();
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator);
        var scanner = lance.newScan(new ScanOptions.Builder().columns(List.of("id", "s")).withRowId(true).build())) {
      List<List<String>> rows = readAll(scanner.scanBatches());
      assertThat(rows).hasSize(3000);
      for (List<String> r : rows) {
        // Row ids were assigned 0..2999 in id order, and the update kept them.
        assertThat(r.get(2)).as("row id of id %s", r.get(0)).isEqualTo(r.get(0));
      }
      assertThat(lance.countRows("s = 'u'")).isEqualTo(200);
      try (ArrowReader taken = lance.takeRows(List.of(950L, 1099L, 5L), List.of("id", "s"))) {
        assertThat(readAll(taken)).containsExactly(List.of("950", "u"), List.of("1099", "u"), List.of("5", "row-5-zzzzz"));
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"V2_0", "V2_1", "V2_2"})
  void addColumnsByExpressionEqualsLance(String version) throws Exception {
    Path ours = dir.resolve("ours");
    Path theirs = dir.resolve("theirs");
    LanceFileVersion v = LanceFileVersion.valueOf(version);
    // Deleted rows make both writers fill the deleted slots of the new files.
    Dataset a = javelinCreate(ours, v, 2500, 1000).delete("id % 10 = 3");
    javelinCreate(theirs, v, 2500, 1000).delete("id % 10 = 3");
    Map<String, String> exprs = new LinkedHashMap<>();
    exprs.put("d", "id * 2");
    exprs.put("h", "x / 2");
    exprs.put("big", "id > 700");
    a = a.addColumns(exprs);
    try (org.lance.Dataset lance = org.lance.Dataset.open(theirs.toString(), allocator)) {
      SqlExpressions.Builder b = new SqlExpressions.Builder();
      exprs.forEach(b::withExpression);
      lance.addColumns(b.build(), Optional.empty());
    }
    Dataset b = Dataset.open(theirs, allocator);
    assertThat(a.schema().toArrow().getFields().subList(5, 8)).extracting(f -> f.getType())
        .isEqualTo(b.schema().toArrow().getFields().subList(5, 8).stream().map(f -> f.getType()).toList());
    List<List<String>> mine = javelinScan(a);
    assertSameRows(mine, javelinScan(b));
    try (org.lance.Dataset lance = org.lance.Dataset.open(ours.toString(), allocator)) {
      assertSameRows(lanceScan(lance), mine);
    }
    assertThat(mine).hasSize(2250);
    assertThat(mine.get(1).subList(5, 8)).containsExactly("2", "0.125", "false");
  }
}
