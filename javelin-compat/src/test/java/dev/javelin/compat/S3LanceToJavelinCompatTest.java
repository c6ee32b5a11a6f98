package dev.javelin.compat;

import static dev.javelin.compat.DatasetCompatSupport.assertSameRows;
import static dev.javelin.compat.DatasetCompatSupport.batches;
import static dev.javelin.compat.DatasetCompatSupport.expected;
import static dev.javelin.compat.S3CompatSupport.javelinOpen;
import static dev.javelin.compat.S3CompatSupport.javelinScan;
import static dev.javelin.compat.S3CompatSupport.lanceOpen;
import static dev.javelin.compat.S3CompatSupport.lanceScan;
import static dev.javelin.compat.S3CompatSupport.lanceWrite;
import static dev.javelin.compat.S3CompatSupport.newUri;
import static dev.javelin.compat.S3CompatSupport.options;
import static dev.javelin.compat.S3CompatSupport.sortedById;
import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.core.Dataset;
import dev.javelin.core.IndexInfo;
import dev.javelin.core.WriteParams;
import dev.javelin.core.cluster.ClusterResult;
import dev.javelin.core.compaction.CompactionScope;
import dev.javelin.index.IndexType;
import dev.javelin.table.Fragment;
import dev.javelin.testing.Readers;
import dev.javelin.testing.S3MockServer;
import dev.javelin.testing.TestAllocator;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.lance.index.DistanceType;
import org.lance.index.IndexParams;
import org.lance.index.scalar.BTreeIndexParams;
import org.lance.index.vector.VectorIndexParams;

/**
 * Datasets lance-core 7.0.0 writes on S3 (S3Mock), read by Javelin by {@code s3://} URI, and
 * rewritten by Javelin (append, delete, add column, repack, cluster) for lance-core to read back.
 */
class S3LanceToJavelinCompatTest {
  static final String BUCKET = S3MockServer.shared().newBucket();
  static final List<String> FILTERS = List.of("id >= 500 AND id < 650", "id = 1000", "id < 40", "id IN (3, 333, 2777)",
      "id > 2100 AND x IS NULL", "id BETWEEN 200 AND 260 AND s IS NOT NULL");

  @TestAllocator BufferAllocator allocator;

  /** 3,000 rows in five fragments (900, 900, 200, 900, 100), rows with id % 13 = 0 deleted, a BTree on id. */
  private String lanceDataset() throws Exception {
    String uri = newUri(BUCKET);
    lanceWrite(allocator, uri, org.lance.WriteParams.WriteMode.CREATE, 0, 2000, 900);
    lanceWrite(allocator, uri, org.lance.WriteParams.WriteMode.APPEND, 2000, 1000, 900);
    try (org.lance.Dataset lance = lanceOpen(uri, allocator)) {
      lance.delete("id % 13 = 0");
      IndexParams params = IndexParams.builder().setScalarIndexParams(BTreeIndexParams.builder().build()).build();
      lance.createIndex(List.of("id"), org.lance.index.IndexType.BTREE, Optional.of("id_idx"), params, false);
      assertThat(lance.version()).isEqualTo(4);
    }
    return uri;
  }

  private List<List<String>> live(long start, int n) {
    List<List<String>> out = new ArrayList<>();
    for (List<String> r : expected(allocator, start, n)) {
      if (Long.parseLong(r.get(0)) % 13 != 0) {
        out.add(r);
      }
    }
    return out;
  }

  private static void assertSameAnswers(Dataset ds, org.lance.Dataset lance) throws Exception {
    assertSameRows(javelinScan(ds, null), lanceScan(lance, null));
    for (String f : FILTERS) {
      assertThat(ds.explain(f).usesIndex()).as(f).isTrue();
      assertSameRows(sortedById(javelinScan(ds, f)), sortedById(lanceScan(lance, f)));
      assertThat(ds.countRows(f)).as(f).isEqualTo(lance.countRows(f));
    }
  }

  @Test
  void javelinReadsALanceDatasetOnS3AndItsBTreeAnswersEqualLances() throws Exception {
    String uri = lanceDataset();
    Dataset ds = javelinOpen(uri, allocator);
    assertThat(ds.location()).isEqualTo(uri);
    assertThat(ds.version()).isEqualTo(4);
    assertThat(ds.manifest().fragments()).extracting(Fragment::physicalRows)
        .containsExactly(900L, 900L, 200L, 900L, 100L);
    assertThat(ds.versions()).extracting(v -> v.operation())
        .containsExactly("Overwrite", "Append", "Delete", "CreateIndex");
    assertThat(ds.indices()).extracting(IndexInfo::name).containsExactly("id_idx");
    assertThat(ds.countRows()).isEqualTo(3000 - 231);
    assertSameRows(javelinScan(ds, null), live(0, 3000));
    try (org.lance.Dataset lance = lanceOpen(uri, allocator)) {
      assertSameAnswers(ds, lance);
    }
    assertThat(Dataset.builder(uri).storageOptions(options()).version(2).allocator(allocator).load().countRows())
        .isEqualTo(3000);
  }

  @Test
  void javelinSearchesAnIvfPqIndexLanceBuiltOnS3() throws Exception {
    String uri = newUri(BUCKET);
    List<VectorSchemaRoot> batches = new ArrayList<>();
    for (int b = 0; b < IvfPqIndexCompatTest.ROWS; b += 1000) {
      VectorSchemaRoot root = VectorSchemaRoot.create(IvfPqIndexCompatTest.SCHEMA, allocator);
      root.allocateNew();
      FixedSizeListVector v = (FixedSizeListVector) root.getVector("v");
      Float4Vector f = (Float4Vector) v.getDataVector();
      for (int i = 0; i < 1000; i++) {
        ((BigIntVector) root.getVector("id")).setSafe(i, b + i);
        v.setNotNull(i);
        for (int j = 0; j < IvfPqIndexCompatTest.DIM; j++) {
          f.setSafe(i * IvfPqIndexCompatTest.DIM + j, IvfPqIndexCompatTest.VECTORS[b + i][j]);
        }
      }
      root.setRowCount(1000);
      batches.add(root);
    }
    try (ArrowReader reader = Readers.readerOf(allocator, IvfPqIndexCompatTest.SCHEMA, batches)) {
      org.lance.Dataset.write().allocator(allocator).reader(reader).uri(uri).storageOptions(options())
          .mode(org.lance.WriteParams.WriteMode.CREATE).maxRowsPerFile(IvfPqIndexCompatTest.PER_FILE).execute()
          .close();
    } finally {
      batches.forEach(VectorSchemaRoot::close);
    }
    int partitions = IvfPqIndexCompatTest.PARTITIONS;
    try (org.lance.Dataset lance = lanceOpen(uri, allocator)) {
      IndexParams p = IndexParams.builder()
          .setVectorIndexParams(VectorIndexParams.ivfPq(partitions, 8, 4, DistanceType.L2, 20)).build();
      lance.createIndex(List.of("v"), org.lance.index.IndexType.IVF_PQ, Optional.of("v_idx"), p, false);
    }
    Dataset ds = javelinOpen(uri, allocator);
    assertThat(ds.indices()).extracting(IndexInfo::name, IndexInfo::type)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("v_idx", IndexType.VECTOR));
    try (org.lance.Dataset lance = lanceOpen(uri, allocator)) {
      for (int s = 0; s < 5; s++) {
        float[] q = IvfPqIndexCompatTest.query(s);
        IvfPqIndexCompatTest.assertSameApproximation(ds.nearest("v", q).k(20).nprobes(partitions).neighbors(),
            IvfPqIndexCompatTest.lanceNearest(lance, q, 20, partitions, null));
        assertThat(IvfPqIndexCompatTest.recall(ds.nearest("v", q).k(10).nprobes(partitions).refineFactor(600)
            .neighbors(), IvfPqIndexCompatTest.truth(q, 10))).isEqualTo(1.0);
      }
    }
  }

  @Test
  void javelinRewritesALanceDatasetOnS3AndLanceReadsAndAppendsAfter() throws Exception {
    String uri = lanceDataset();
    Dataset ds = javelinOpen(uri, allocator);
    List<VectorSchemaRoot> more = batches(allocator, 3000, 600, 300);
    try {
      ds = ds.append(more, WriteParams.builder().maxRowsPerFile(300).storageOptions(options()).build());
    } finally {
      more.forEach(VectorSchemaRoot::close);
    }
    ds = ds.delete("id % 17 = 5");
    ds = ds.addColumns(Map.of("y", "id * 2"));
    assertThat(ds.manifest().fragments().get(0).files()).hasSize(2);
    ds = ds.compact().scope(CompactionScope.REPACK_COLUMNS).maxDataFilesPerFragment(1).commit().dataset();
    assertThat(ds.manifest().fragments()).allSatisfy(f -> assertThat(f.files()).hasSize(1));
    ClusterResult clustered = ds.cluster().by("s").fragments(List.of(0L, 1L, 2L)).targetRowsPerFragment(700).commit();
    ds = clustered.dataset();
    long version = ds.version();

    // lance-core deleted id % 13 = 0 before Javelin appended 3000..3599.
    List<List<String>> before = live(0, 3000);
    before.addAll(expected(allocator, 3000, 600));
    List<List<String>> want = new ArrayList<>();
    for (List<String> r : before) {
      long id = Long.parseLong(r.get(0));
      if (id % 17 != 5) {
        List<String> row = new ArrayList<>(r);
        row.add(Long.toString(id * 2));
        want.add(row);
      }
    }
    // Javelin's own reading of its result, then lance-core's.
    assertSameRows(sortedById(javelinScan(ds, null)), want);
    try (org.lance.Dataset lance = lanceOpen(uri, allocator)) {
      assertThat(lance.version()).isEqualTo(version);
      assertThat(lance.countRows()).isEqualTo(want.size());
      assertSameRows(sortedById(lanceScan(lance, null)), want);
      for (String f : FILTERS) {
        assertSameRows(sortedById(lanceScan(lance, f)), sortedById(javelinScan(ds, f)));
      }
    }
    // lance-core appends after (with y, the column Javelin added) and both read everything.
    List<VectorSchemaRoot> tail = batches(allocator, 3600, 100, 100);
    List<Field> fields = new ArrayList<>(DatasetCompatSupport.SCHEMA.getFields());
    fields.add(Field.nullable("y", new ArrowType.Int(64, true)));
    Schema withY = new Schema(fields);
    List<VectorSchemaRoot> tailY = new ArrayList<>();
    try {
      for (VectorSchemaRoot t : tail) {
        tailY.add(withColumnY(t, withY));
      }
      try (ArrowReader reader = Readers.readerOf(allocator, withY, tailY)) {
        org.lance.Dataset.write().allocator(allocator).reader(reader).uri(uri).storageOptions(options())
            .mode(org.lance.WriteParams.WriteMode.APPEND).execute().close();
      }
    } finally {
      tail.forEach(VectorSchemaRoot::close);
      tailY.forEach(VectorSchemaRoot::close);
    }
    for (List<String> r : expected(allocator, 3600, 100)) {
      List<String> row = new ArrayList<>(r);
      row.add(Long.toString(Long.parseLong(r.get(0)) * 2));
      want.add(row);
    }
    try (org.lance.Dataset lance = lanceOpen(uri, allocator)) {
      assertThat(lance.version()).isEqualTo(version + 1);
      assertSameRows(sortedById(lanceScan(lance, null)), want);
    }
    assertSameRows(sortedById(javelinScan(javelinOpen(uri, allocator), null)), want);
  }

  private VectorSchemaRoot withColumnY(VectorSchemaRoot t, Schema schema) {
    VectorSchemaRoot out = VectorSchemaRoot.create(schema, allocator);
    for (int c = 0; c < t.getFieldVectors().size(); c++) {
      t.getVector(c).makeTransferPair(out.getVector(c)).splitAndTransfer(0, t.getRowCount());
    }
    BigIntVector y = (BigIntVector) out.getVector("y");
    BigIntVector id = (BigIntVector) out.getVector("id");
    y.allocateNew(t.getRowCount());
    for (int i = 0; i < t.getRowCount(); i++) {
      y.set(i, id.get(i) * 2);
    }
    y.setValueCount(t.getRowCount());
    out.setRowCount(t.getRowCount());
    return out;
  }
}
