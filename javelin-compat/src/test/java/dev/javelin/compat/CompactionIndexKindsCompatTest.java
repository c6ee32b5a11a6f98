package dev.javelin.compat;

import static dev.javelin.compat.DatasetCompatSupport.readerOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.core.Dataset;
import dev.javelin.core.compaction.CompactionMode;
import dev.javelin.core.compaction.CompactionOptions;
import dev.javelin.core.compaction.CompactionScope;
import dev.javelin.core.exceptions.IndexRemapUnsupportedException;
import dev.javelin.table.IndexMetadata;
import dev.javelin.testing.TestAllocator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.impl.UnionListWriter;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.Text;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.lance.index.DistanceType;
import org.lance.index.IndexParams;
import org.lance.index.IndexType;
import org.lance.index.OptimizeOptions;
import org.lance.index.scalar.BTreeIndexParams;
import org.lance.index.scalar.BitmapIndexParams;
import org.lance.index.scalar.InvertedIndexParams;
import org.lance.index.scalar.LabelListIndexParams;
import org.lance.index.scalar.NGramIndexParams;
import org.lance.index.scalar.ScalarIndexParams;
import org.lance.index.scalar.ZoneMapIndexParams;
import org.lance.index.vector.HnswBuildParams;
import org.lance.index.vector.IvfBuildParams;
import org.lance.index.vector.SQBuildParams;
import org.lance.index.vector.VectorIndexParams;
import org.lance.ipc.FullTextQuery;
import org.lance.ipc.Query;
import org.lance.ipc.ScanOptions;
import org.lance.schema.SqlExpressions;

/**
 * Javelin compacts (rewrites, binary-copy rewrites, column repacks) and clusters a dataset on
 * which lance-core 7.0.0 built one index of every kind, and lance-core's indexed answers stay
 * equal to its unindexed ones and to the data, row by row; lance-core then compacts and
 * optimizes the indices itself and the answers stay right. Also records what lance-core's own
 * compaction does with each kind (the reason for Javelin's choice per kind, see IndexRemapper).
 */
class CompactionIndexKindsCompatTest {
  static final int ROWS = 2000;
  static final int DIM = 8;
  static final String DELETE = "id % 9 = 4 OR (id >= 600 AND id < 680)";

  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  static boolean deleted(long id) {
    return id % 9 == 4 || (id >= 600 && id < 680);
  }

  // ---- the data: a function of the row number ----

  static String cat(long i) {
    return "c" + (i % 7);
  }

  static long zone(long i) {
    return i * 3;
  }

  static long bloom(long i) {
    return i % 101;
  }

  static List<Long> labels(long i) {
    return List.of(i % 5, 10 + i % 3);
  }

  static String text(long i) {
    return "row" + i + (i % 13 == 0 ? "needle" : "hay");
  }

  static String doc(long i) {
    return "w" + (i % 11) + " v" + (i % 17) + " common";
  }

  static float[] vector(long i, int salt) {
    Random r = new Random(i * 31 + salt);
    float[] v = new float[DIM];
    for (int d = 0; d < DIM; d++) {
      v[d] = r.nextFloat() * 10;
    }
    return v;
  }

  static final Schema SCHEMA = new Schema(List.of(
      new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
      Field.nullable("cat", ArrowType.Utf8.INSTANCE),
      Field.nullable("z", new ArrowType.Int(64, true)),
      Field.nullable("b", new ArrowType.Int(64, true)),
      new Field("labels", FieldType.nullable(ArrowType.List.INSTANCE),
          List.of(Field.nullable("item", new ArrowType.Int(64, true)))),
      Field.nullable("text", ArrowType.Utf8.INSTANCE),
      Field.nullable("doc", ArrowType.Utf8.INSTANCE),
      vectorField("vec"),
      vectorField("pvec")));

  static Field vectorField(String name) {
    return new Field(name, FieldType.nullable(new ArrowType.FixedSizeList(DIM)),
        List.of(Field.nullable("item", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE))));
  }

  VectorSchemaRoot batch(long start, int n) {
    VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator);
    root.allocateNew();
    BigIntVector id = (BigIntVector) root.getVector("id");
    VarCharVector cat = (VarCharVector) root.getVector("cat");
    BigIntVector z = (BigIntVector) root.getVector("z");
    BigIntVector b = (BigIntVector) root.getVector("b");
    ListVector labels = (ListVector) root.getVector("labels");
    VarCharVector text = (VarCharVector) root.getVector("text");
    VarCharVector doc = (VarCharVector) root.getVector("doc");
    UnionListWriter lw = labels.getWriter();
    for (int k = 0; k < n; k++) {
      long i = start + k;
      id.setSafe(k, i);
      cat.setSafe(k, new Text(cat(i)));
      z.setSafe(k, zone(i));
      b.setSafe(k, bloom(i));
      lw.setPosition(k);
      lw.startList();
      for (long l : labels(i)) {
        lw.bigInt().writeBigInt(l);
      }
      lw.endList();
      text.setSafe(k, new Text(text(i)));
      doc.setSafe(k, new Text(doc(i)));
      for (String name : List.of("vec", "pvec")) {
        FixedSizeListVector fv = (FixedSizeListVector) root.getVector(name);
        Float4Vector values = (Float4Vector) fv.getDataVector();
        fv.setNotNull(k);
        float[] v = vector(i, name.equals("vec") ? 1 : 2);
        for (int d = 0; d < DIM; d++) {
          values.setSafe(k * DIM + d, v[d]);
        }
      }
    }
    root.setRowCount(n);
    return root;
  }

  // ---- the indices lance-core builds, and the questions each answers ----

  record Kind(String name, String column, IndexType type, IndexParams params) {}

  static IndexParams scalar(ScalarIndexParams p) {
    return IndexParams.builder().setScalarIndexParams(p).build();
  }

  static final List<Kind> KINDS = List.of(
      new Kind("id_idx", "id", IndexType.BTREE, scalar(BTreeIndexParams.builder().build())),
      new Kind("cat_idx", "cat", IndexType.BITMAP, scalar(new BitmapIndexParams.Builder().build())),
      new Kind("z_idx", "z", IndexType.ZONEMAP, scalar(new ZoneMapIndexParams.Builder().rowsPerZone(64).build())),
      new Kind("b_idx", "b", IndexType.BLOOM_FILTER, scalar(ScalarIndexParams.create("bloomfilter"))),
      new Kind("labels_idx", "labels", IndexType.LABEL_LIST, scalar(new LabelListIndexParams.Builder().build())),
      new Kind("text_idx", "text", IndexType.NGRAM, scalar(new NGramIndexParams.Builder().build())),
      new Kind("doc_idx", "doc", IndexType.INVERTED, scalar(new InvertedIndexParams.Builder()
          .baseTokenizer("simple").language("English").withPosition(false).maxTokenLength(40).lowerCase(true)
          .stem(false).removeStopWords(false).asciiFolding(false).minNgramLength(3).maxNgramLength(3)
          .prefixOnly(false).skipMerge(false).build())),
      new Kind("vec_idx", "vec", IndexType.IVF_HNSW_SQ, IndexParams.builder().setVectorIndexParams(
          VectorIndexParams.withIvfHnswSqParams(DistanceType.L2,
              new IvfBuildParams.Builder().setNumPartitions(4).build(),
              new HnswBuildParams.Builder().build(), new SQBuildParams.Builder().build())).build()),
      new Kind("pvec_idx", "pvec", IndexType.IVF_PQ, IndexParams.builder().setVectorIndexParams(
          VectorIndexParams.ivfPq(4, 8, 2, DistanceType.L2, 10)).build()));

  record Filter(String sql, Predicate<Long> matches) {}

  static final List<Filter> FILTERS = List.of(
      new Filter("id >= 300 AND id < 1300", i -> i >= 300 && i < 1300),
      new Filter("id = 1777", i -> i == 1777),
      new Filter("cat = 'c3'", i -> cat(i).equals("c3")),
      new Filter("z >= 900 AND z < 2400", i -> zone(i) >= 900 && zone(i) < 2400),
      new Filter("b = 17", i -> bloom(i) == 17),
      new Filter("b IN (3, 99)", i -> bloom(i) == 3 || bloom(i) == 99),
      new Filter("array_has_any(labels, [2])", i -> labels(i).contains(2L)),
      new Filter("array_has_all(labels, [1, 12])", i -> labels(i).contains(1L) && labels(i).contains(12L)),
      new Filter("contains(text, 'needle')", i -> text(i).contains("needle")),
      new Filter("contains(text, 'w12')", i -> text(i).contains("w12")),
      new Filter("contains(text, 'row17')", i -> text(i).contains("row17")));

  static TreeSet<Long> expected(Predicate<Long> p) {
    TreeSet<Long> out = new TreeSet<>();
    for (long i = 0; i < ROWS; i++) {
      if (!deleted(i) && p.test(i)) {
        out.add(i);
      }
    }
    return out;
  }

  static List<Long> scanIds(org.lance.Dataset lance, ScanOptions options) throws Exception {
    List<Long> out = new ArrayList<>();
    try (var scanner = lance.newScan(options); ArrowReader r = scanner.scanBatches()) {
      while (r.loadNextBatch()) {
        BigIntVector id = (BigIntVector) r.getVectorSchemaRoot().getVector("id");
        for (int i = 0; i < id.getValueCount(); i++) {
          out.add(id.get(i));
        }
      }
    }
    return out;
  }

  static TreeSet<Long> nearestExact(String column, float[] q, int k) {
    int salt = column.equals("vec") ? 1 : 2;
    List<Long> live = new ArrayList<>();
    for (long i = 0; i < ROWS; i++) {
      if (!deleted(i)) {
        live.add(i);
      }
    }
    live.sort(Comparator.comparingDouble(i -> l2(vector(i, salt), q)));
    return new TreeSet<>(live.subList(0, k));
  }

  static double l2(float[] a, float[] b) {
    double s = 0;
    for (int d = 0; d < a.length; d++) {
      s += (a[d] - b[d]) * (double) (a[d] - b[d]);
    }
    return s;
  }

  /** Every question each index kind answers, indexed and not, equals the data. */
  static void checkAnswers(org.lance.Dataset lance, String when) throws Exception {
    checkAnswers(lance, when, true);
  }

  // Without `searches`, only the filters (no full text or vector search).
  static void checkAnswers(org.lance.Dataset lance, String when, boolean searches) throws Exception {
    for (Filter f : FILTERS) {
      TreeSet<Long> want = expected(f.matches());
      List<Long> indexed = scanIds(lance, new ScanOptions.Builder().columns(List.of("id")).filter(f.sql())
          .useScalarIndex(true).build());
      List<Long> scanned = scanIds(lance, new ScanOptions.Builder().columns(List.of("id")).filter(f.sql())
          .useScalarIndex(false).build());
      assertThat(indexed).as("%s, indexed: %s", when, f.sql()).doesNotHaveDuplicates();
      assertThat(new TreeSet<>(indexed)).as("%s, indexed: %s", when, f.sql()).isEqualTo(want);
      assertThat(new TreeSet<>(scanned)).as("%s, scanned: %s", when, f.sql()).isEqualTo(want);
    }
    if (!searches) {
      return;
    }
    for (int w : new int[] {3, 10}) {
      String word = "w" + w;
      List<Long> got = scanIds(lance, new ScanOptions.Builder().columns(List.of("id"))
          .fullTextQuery(FullTextQuery.match(word, "doc")).limit(ROWS).build());
      assertThat(got).as("%s, full text '%s'", when, word).doesNotHaveDuplicates();
      assertThat(new TreeSet<>(got)).as("%s, full text '%s'", when, word)
          .isEqualTo(expected(i -> List.of(doc(i).split(" ")).contains(word)));
    }
    for (String column : List.of("vec", "pvec")) {
      for (int q = 0; q < 3; q++) {
        float[] key = vector(10_000 + q, 7);
        List<Long> got = scanIds(lance, new ScanOptions.Builder().columns(List.of("id")).nearest(new Query.Builder()
            .setColumn(column).setKey(key).setK(10).setNprobes(4).setEf(1000).setRefineFactor(50).build()).build());
        assertThat(got).as("%s, nearest on %s", when, column).doesNotHaveDuplicates();
        assertThat(new TreeSet<>(got)).as("%s, nearest on %s (query %d)", when, column, q)
            .isEqualTo(nearestExact(column, key, 10));
      }
    }
  }

  /** A lance-core dataset of 8 fragments with every index kind, and deletions. */
  Path lanceDataset(boolean deleteNow) throws Exception {
    Path path = dir.resolve("ds");
    for (long s = 0; s < ROWS; s += 500) {
      try (VectorSchemaRoot data = batch(s, 500); ArrowReader reader = readerOf(allocator, SCHEMA, List.of(data))) {
        org.lance.Dataset.write().allocator(allocator).reader(reader).uri(path.toString())
            .mode(s == 0 ? org.lance.WriteParams.WriteMode.CREATE : org.lance.WriteParams.WriteMode.APPEND)
            .maxRowsPerFile(250).execute().close();
      }
    }
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      for (Kind k : KINDS) {
        lance.createIndex(List.of(k.column()), k.type(), Optional.of(k.name()), k.params(), false);
      }
      if (deleteNow) {
        lance.delete(DELETE);
      }
    }
    return path;
  }

  static Map<String, IndexMetadata> byName(Dataset ds) {
    Map<String, IndexMetadata> out = new HashMap<>();
    ds.manifest().indices().forEach(i -> out.put(i.name(), i));
    return out;
  }

  static Set<Long> bitmap(IndexMetadata i) {
    Set<Long> out = new TreeSet<>();
    i.fragmentBitmap().forEach((int f) -> out.add((long) f));
    return out;
  }

  static Set<Long> fragmentIds(Dataset ds) {
    return ds.manifest().fragments().stream().map(f -> f.id()).collect(Collectors.toCollection(TreeSet::new));
  }

  /** Indices Javelin remaps, and what the other kinds do with the fragments a rewrite removed. */
  static final Set<String> REMAPPED = Set.of("id_idx", "cat_idx", "labels_idx", "text_idx", "z_idx", "b_idx",
      "pvec_idx", "vec_idx");
  static final Set<String> RETIRED = Set.of("doc_idx");

  enum Run { REWRITE, BINARY_COPY_REWRITE, REPACK, CLUSTER }

  @ParameterizedTest
  @EnumSource(Run.class)
  void lanceAnswersRightWithEveryIndexKindAfterJavelinCompacts(Run run) throws Exception {
    boolean binary = run == Run.BINARY_COPY_REWRITE;
    // A binary-copy rewrite needs fragments without deletions: lance-core deletes afterwards.
    Path path = lanceDataset(!binary);
    if (run == Run.REPACK) {
      try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
        lance.addColumns(new SqlExpressions.Builder().withExpression("f", "id + 7").build(), Optional.empty());
        lance.addColumns(new SqlExpressions.Builder().withExpression("g", "id * 2").build(), Optional.empty());
      }
    }
    Dataset ds = Dataset.open(path, allocator);
    Map<String, IndexMetadata> before = byName(ds);
    assertThat(before.keySet()).containsAll(KINDS.stream().map(Kind::name).toList());
    Set<Long> fragmentsBefore = fragmentIds(ds);
    Dataset after;
    switch (run) {
      case REWRITE:
        after = ds.compact(CompactionOptions.builder().targetRowsPerFragment(1000).build());
        break;
      case BINARY_COPY_REWRITE:
        after = ds.compact(CompactionOptions.builder().targetRowsPerFragment(1000)
            .mode(CompactionMode.FORCE_BINARY_COPY).build());
        break;
      case REPACK:
        after = ds.compact(CompactionOptions.builder().scope(CompactionScope.REPACK_COLUMNS)
            .maxDataFilesPerFragment(1).build());
        break;

      default:
        after = ds.cluster().by("b").targetRowsPerFragment(1000).commit().dataset();
    }
    assertThat(after.version()).isGreaterThan(ds.version());
    Set<Long> live = fragmentIds(after);
    Set<Long> removed = new TreeSet<>(fragmentsBefore);
    removed.removeAll(live);
    Map<String, IndexMetadata> now = byName(after);
    if (run == Run.REPACK) {
      // A repack moves no row: every index stays as it was.
      assertThat(removed).isEmpty();
      for (Kind k : KINDS) {
        assertThat(now.get(k.name())).as(k.name()).isEqualTo(before.get(k.name()));
      }
    } else {
      assertThat(removed).isNotEmpty();
    }
    if (run == Run.REWRITE || run == Run.BINARY_COPY_REWRITE) {
      for (Kind k : KINDS) {
        Set<Long> b = bitmap(now.get(k.name()));
        String uuidBefore = before.get(k.name()).uuid();
        String uuidNow = now.get(k.name()).uuid();
        if (REMAPPED.contains(k.name())) {
          assertThat(uuidNow).as(k.name()).isNotEqualTo(uuidBefore);
          assertThat(b).as(k.name()).isEqualTo(live);
        } else if (RETIRED.contains(k.name())) {
          assertThat(now.get(k.name())).as(k.name()).isEqualTo(before.get(k.name()));
          assertThat(b).as(k.name()).isEqualTo(fragmentsBefore);
        } else {
          throw new AssertionError("Every kind is remapped or retired; not " + k.name());
        }
      }
    }
    List<String> names = KINDS.stream().map(Kind::name).toList();
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      assertThat(lance.listIndexes()).containsAll(names);
      if (binary) {
        lance.delete(DELETE);
        lance.checkoutLatest();
      }
      checkAnswers(lance, run + " by Javelin");
    }
    if (run == Run.CLUSTER) {
      Dataset settled = Dataset.open(path, allocator).settleIndices().dataset();
      try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
        assertThat(lance.version()).isEqualTo(settled.version());
        checkAnswers(lance, "after settleIndices");
      }
    }
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      lance.compact(org.lance.compaction.CompactionOptions.builder().withTargetRowsPerFragment(5000).build());
      lance.checkoutLatest();
      assertThat(lance.getFragments()).hasSize(1);
      checkAnswers(lance, run + ", then lance-core's compaction");
      lance.optimizeIndices(OptimizeOptions.builder().build());
      lance.checkoutLatest();
      checkAnswers(lance, run + ", then lance-core's optimize");
      // Both vector indices (IVF_PQ, IVF_HNSW_SQ) are remapped to the new fragments: lance-core
      // keeps every index.
      assertThat(lance.listIndexes()).containsAll(names);
    }
    Dataset latest = Dataset.open(path, allocator);
    for (Filter f : FILTERS.subList(0, 3)) {
      assertThat(latest.countRows(f.sql())).as(f.sql()).isEqualTo(expected(f.matches()).size());
    }
  }

  /**
   * A rewrite deferring the remap: lance-core translates every index's coverage through the
   * fragment reuse index, but it cannot search an inverted or vector index that way (a vector
   * search takes rows of the old fragments, a full text search panics; tried), so Javelin refuses
   * those before any work; and its zone maps and bloom filters ignore the reuse index, so Javelin
   * uncovers them (translated, the zone map missed rows).
   */
  @Test
  void deferredRemapKeepsScalarIndicesRightAndRefusesSearchIndices() throws Exception {
    Path path = lanceDataset(true);
    Dataset ds = Dataset.open(path, allocator);
    CompactionOptions deferred = CompactionOptions.builder().targetRowsPerFragment(1000).deferIndexRemap(true).build();
    assertThatThrownBy(() -> ds.compact(deferred)).isInstanceOf(IndexRemapUnsupportedException.class)
        .hasMessageContaining("'doc_idx'");
    assertThat(Dataset.open(path, allocator).version()).isEqualTo(ds.version());
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      for (String name : List.of("doc_idx", "vec_idx", "pvec_idx")) {
        lance.dropIndex(name);
      }
    }
    Dataset scalarOnly = Dataset.open(path, allocator);
    Map<String, IndexMetadata> before = byName(scalarOnly);
    Dataset after = scalarOnly.compact(deferred);
    Map<String, IndexMetadata> now = byName(after);
    assertThat(now).containsKey("__lance_frag_reuse");
    for (String name : List.of("z_idx", "b_idx")) {
      assertThat(bitmap(now.get(name))).as(name).isEmpty();
    }
    for (String name : List.of("id_idx", "cat_idx", "labels_idx", "text_idx")) {
      assertThat(now.get(name)).as(name).isEqualTo(before.get(name));
    }
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      checkAnswers(lance, "deferred remap by Javelin", false);
    }
  }

  /** What lance-core 7.0.0's own compaction does with each kind (the model Javelin follows). */
  @Test
  void lanceCoreRemapsEveryKindButZoneMapsAndBloomFiltersWhichKeepTheirOldCoverage() throws Exception {
    Path path = lanceDataset(true);
    Dataset ds = Dataset.open(path, allocator);
    Map<String, IndexMetadata> before = byName(ds);
    Set<Long> fragmentsBefore = fragmentIds(ds);
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      lance.compact(org.lance.compaction.CompactionOptions.builder().withTargetRowsPerFragment(1000).build());
    }
    Dataset after = Dataset.open(path, allocator);
    Map<String, IndexMetadata> now = byName(after);
    Set<Long> live = fragmentIds(after);
    Set<String> kept = new HashSet<>();
    for (Kind k : KINDS) {
      IndexMetadata b = before.get(k.name());
      IndexMetadata n = now.get(k.name());
      if (n.sameUuid(b)) {
        kept.add(k.name());
        assertThat(bitmap(n)).as(k.name()).isEqualTo(fragmentsBefore);
      } else {
        assertThat(bitmap(n)).as(k.name()).isEqualTo(live);
      }
    }
    assertThat(kept).containsExactlyInAnyOrder("z_idx", "b_idx");
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      checkAnswers(lance, "lance-core's own compaction");
    }
  }
}
