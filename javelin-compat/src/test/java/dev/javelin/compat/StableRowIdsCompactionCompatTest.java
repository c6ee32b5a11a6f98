package dev.javelin.compat;

import static dev.javelin.compat.CompactionIndexKindsCompatTest.bitmap;
import static dev.javelin.compat.CompactionIndexKindsCompatTest.byName;
import static dev.javelin.compat.CompactionIndexKindsCompatTest.cat;
import static dev.javelin.compat.CompactionIndexKindsCompatTest.fragmentIds;
import static dev.javelin.compat.CompactionIndexKindsCompatTest.l2;
import static dev.javelin.compat.CompactionIndexKindsCompatTest.scanIds;
import static dev.javelin.compat.CompactionIndexKindsCompatTest.vector;
import static dev.javelin.compat.DatasetCompatSupport.readerOf;
import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.core.Dataset;
import dev.javelin.core.VectorSearchPlan;
import dev.javelin.core.compaction.CompactionOptions;
import dev.javelin.table.Fragment;
import dev.javelin.table.IndexMetadata;
import dev.javelin.table.Table;
import dev.javelin.table.proto.TransactionProtos;
import dev.javelin.testing.TestAllocator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.Text;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.index.DistanceType;
import org.lance.index.IndexParams;
import org.lance.index.IndexType;
import org.lance.index.scalar.BTreeIndexParams;
import org.lance.index.scalar.BitmapIndexParams;
import org.lance.index.vector.VectorIndexParams;
import org.lance.ipc.Query;
import org.lance.ipc.ScanOptions;
import org.roaringbitmap.RoaringBitmap;

/**
 * Javelin rewrites fragments lance-core's BTree, BITMAP and IVF_PQ indices cover on a dataset
 * with stable row ids (lance-core's, small fragments, deletions, two fragments no index covers).
 * The indices hold stable row ids, which the rewrite keeps: Javelin leaves every index file as it
 * is and moves each index's coverage to the new fragments, exactly as lance-core 7.0.0's own
 * compaction of the same dataset does (same fragments, same bitmaps, no rewritten indices in its
 * Rewrite); lance-core's indexed answers then equal its unindexed scans and the data, row by row.
 */
class StableRowIdsCompactionCompatTest {
  static final int INDEXED = 2000;
  static final int ROWS = 2500;
  static final int DIM = CompactionIndexKindsCompatTest.DIM;

  static boolean deleted(long id) {
    return id % 9 == 4 || (id >= 600 && id < 680) || id == 2222;
  }

  static final String DELETE = "id % 9 = 4 OR (id >= 600 AND id < 680) OR id = 2222";

  static final Schema SCHEMA = new Schema(List.of(
      new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
      Field.nullable("cat", ArrowType.Utf8.INSTANCE),
      CompactionIndexKindsCompatTest.vectorField("vec")));

  record Filter(String sql, Predicate<Long> matches) {}

  static final List<Filter> FILTERS = List.of(
      new Filter("id >= 300 AND id < 1300", i -> i >= 300 && i < 1300),
      new Filter("id >= 1900 AND id < 2100", i -> i >= 1900 && i < 2100),
      new Filter("id = 1777", i -> i == 1777),
      new Filter("cat = 'c3'", i -> cat(i).equals("c3")),
      new Filter("cat = 'c5' AND id < 1000", i -> cat(i).equals("c5") && i < 1000));

  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  VectorSchemaRoot batch(long start, int n) {
    VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator);
    root.allocateNew();
    FixedSizeListVector fv = (FixedSizeListVector) root.getVector("vec");
    Float4Vector values = (Float4Vector) fv.getDataVector();
    for (int k = 0; k < n; k++) {
      long i = start + k;
      ((BigIntVector) root.getVector("id")).setSafe(k, i);
      ((VarCharVector) root.getVector("cat")).setSafe(k, new Text(cat(i)));
      fv.setNotNull(k);
      float[] v = vector(i, 1);
      for (int d = 0; d < DIM; d++) {
        values.setSafe(k * DIM + d, v[d]);
      }
    }
    root.setRowCount(n);
    return root;
  }

  void write(Path path, long start, int n, boolean create) throws Exception {
    try (VectorSchemaRoot data = batch(start, n); ArrowReader reader = readerOf(allocator, SCHEMA, List.of(data))) {
      org.lance.Dataset.write().allocator(allocator).reader(reader).uri(path.toString())
          .mode(create ? org.lance.WriteParams.WriteMode.CREATE : org.lance.WriteParams.WriteMode.APPEND)
          .maxRowsPerFile(250).enableStableRowIds(true).execute().close();
    }
  }

  /** 8 indexed fragments of 250 rows, 2 appended after the indices, rows deleted from both. */
  Path lanceDataset(String name) throws Exception {
    Path path = dir.resolve(name);
    for (long s = 0; s < INDEXED; s += 500) {
      write(path, s, 500, s == 0);
    }
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      lance.createIndex(List.of("id"), IndexType.BTREE, Optional.of("id_idx"),
          IndexParams.builder().setScalarIndexParams(BTreeIndexParams.builder().build()).build(), false);
      lance.createIndex(List.of("cat"), IndexType.BITMAP, Optional.of("cat_idx"),
          IndexParams.builder().setScalarIndexParams(new BitmapIndexParams.Builder().build()).build(), false);
      lance.createIndex(List.of("vec"), IndexType.IVF_PQ, Optional.of("vec_idx"), IndexParams.builder()
          .setVectorIndexParams(VectorIndexParams.ivfPq(4, 8, 2, DistanceType.L2, 10)).build(), false);
    }
    write(path, INDEXED, ROWS - INDEXED, false);
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      lance.delete(DELETE);
    }
    return path;
  }

  static TreeSet<Long> expected(Predicate<Long> p) {
    TreeSet<Long> out = new TreeSet<>();
    for (long i = 0; i < ROWS; i++) {
      if (!deleted(i) && p.test(i)) {
        out.add(i);
      }
    }
    return out;
  }

  static List<Long> nearestExact(float[] q, int k) {
    List<Long> live = new ArrayList<>(expected(i -> true));
    live.sort(Comparator.<Long>comparingDouble(i -> l2(vector(i, 1), q)).thenComparing(i -> i));
    return live.subList(0, k);
  }

  /** Each fragment's id and physical rows, in manifest order. */
  static List<List<Long>> layout(Dataset ds) {
    return ds.manifest().fragments().stream().map(f -> List.of(f.id(), f.physicalRows())).toList();
  }

  static TransactionProtos.Transaction.Rewrite rewrite(Dataset ds) {
    TransactionProtos.Transaction t = Table.at(ds.store()).transaction(ds.manifest()).orElseThrow().proto();
    assertThat(t.hasRewrite()).as(t.toString()).isTrue();
    return t.getRewrite();
  }

  @Test
  void javelinRewritesIndexedFragmentsAsLanceCoreDoesAndItsIndicesStayRight() throws Exception {
    // lance-core compacts one copy: the model.
    Path model = lanceDataset("lance");
    Dataset modelDs = Dataset.open(model, allocator);
    Map<String, IndexMetadata> modelBefore = byName(modelDs);
    try (org.lance.Dataset lance = org.lance.Dataset.open(model.toString(), allocator)) {
      lance.compact(org.lance.compaction.CompactionOptions.builder().withTargetRowsPerFragment(1000).build());
    }
    Dataset lanceCompacted = Dataset.open(model, allocator);
    Map<String, IndexMetadata> modelAfter = byName(lanceCompacted);
    assertThat(rewrite(lanceCompacted).getRewrittenIndicesCount()).isZero();

    // Javelin compacts the other.
    Path path = lanceDataset("javelin");
    Dataset ds = Dataset.open(path, allocator);
    assertThat(ds.hasStableRowIds()).isTrue();
    Map<String, IndexMetadata> before = byName(ds);
    assertThat(layout(ds)).hasSize(10).isEqualTo(layout(modelDs));
    Dataset after = ds.compact(CompactionOptions.builder().targetRowsPerFragment(1000).build());
    assertThat(rewrite(after).getRewrittenIndicesCount()).isZero();
    Map<String, IndexMetadata> now = byName(after);

    // The same fragments as lance-core's compaction, and the same coverage: an index covering a
    // whole group covers its new fragments; the group of the two unindexed fragments stays out.
    assertThat(layout(after)).isEqualTo(layout(lanceCompacted));
    Set<Long> indexedFragments = new TreeSet<>();
    for (Fragment f : after.manifest().fragments()) {
      long first = f.rowIdSequence(after.store()).orElseThrow().get(0);
      if (first < INDEXED) {
        indexedFragments.add(f.id());
      }
    }
    assertThat(indexedFragments).isNotEmpty().isNotEqualTo(fragmentIds(after));
    for (String name : List.of("id_idx", "cat_idx", "vec_idx")) {
      assertThat(bitmap(modelAfter.get(name))).as("lance-core's %s", name).isEqualTo(indexedFragments);
      assertThat(modelAfter.get(name).uuid()).as("lance-core's %s", name)
          .isEqualTo(modelBefore.get(name).uuid());
      assertThat(bitmap(now.get(name))).as(name).isEqualTo(bitmap(modelAfter.get(name)));
      // Everything but the bitmap is as it was.
      assertThat(now.get(name).toBuilder().fragmentBitmap(new RoaringBitmap()).build()).as(name)
          .isEqualTo(before.get(name).toBuilder().fragmentBitmap(new RoaringBitmap()).build());
    }

    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      assertThat(lance.version()).isEqualTo(after.version());
      for (Filter f : FILTERS) {
        List<Long> indexed = scanIds(lance, new ScanOptions.Builder().columns(List.of("id")).filter(f.sql())
            .useScalarIndex(true).build());
        List<Long> scanned = scanIds(lance, new ScanOptions.Builder().columns(List.of("id")).filter(f.sql())
            .useScalarIndex(false).build());
        indexed.sort(null);
        scanned.sort(null);
        assertThat(indexed).as("indexed: %s", f.sql()).isEqualTo(scanned)
            .isEqualTo(new ArrayList<>(expected(f.matches())));
      }
      for (int q = 0; q < 4; q++) {
        float[] key = vector(10_000 + q, 7);
        List<Long> got = scanIds(lance, new ScanOptions.Builder().columns(List.of("id")).nearest(new Query.Builder()
            .setColumn("vec").setKey(key).setK(10).setNprobes(4).setRefineFactor(50).build()).build());
        assertThat(got).as("lance-core nearest %d", q).doesNotHaveDuplicates();
        assertThat(new TreeSet<>(got)).as("lance-core nearest %d", q).isEqualTo(new TreeSet<>(nearestExact(key, 10)));
      }
      Map<String, Object> stats = lance.getIndexStatistics("id_idx");
      assertThat(((Number) stats.get("num_unindexed_rows")).longValue()).as(stats.toString())
          .isEqualTo(expected(i -> i >= INDEXED).size());
    }

    // Javelin's own answers: filtered counts, and nearest through the IVF_PQ index (its row ids
    // are stable row ids, which equal the id column here).
    for (Filter f : FILTERS) {
      assertThat(after.countRows(f.sql())).as(f.sql()).isEqualTo(expected(f.matches()).size());
    }
    for (int q = 0; q < 4; q++) {
      float[] key = vector(10_000 + q, 7);
      VectorSearchPlan plan = after.nearest("vec", key).k(10).nprobes(4).refineFactor(50).explain();
      assertThat(plan.index()).isNotNull();
      assertThat(plan.index().name()).isEqualTo("vec_idx");
      assertThat(new TreeSet<>(plan.indexedFragments())).isEqualTo(indexedFragments);
      long[] got = after.nearest("vec", key).k(10).nprobes(4).refineFactor(50).neighbors().rowIds();
      assertThat(new TreeSet<>(Arrays.stream(got).boxed().toList())).as("Javelin nearest %d", q)
          .isEqualTo(new TreeSet<>(nearestExact(key, 10)));
    }
  }
}
