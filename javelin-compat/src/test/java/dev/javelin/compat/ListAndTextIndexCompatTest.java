package dev.javelin.compat;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.core.Dataset;
import dev.javelin.core.IndexInfo;
import dev.javelin.core.ScanPlan;
import dev.javelin.core.WriteParams;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.index.IndexType;
import dev.javelin.testing.TestAllocator;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.LongPredicate;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.impl.UnionListWriter;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.index.IndexParams;
import org.lance.index.OptimizeOptions;
import org.lance.index.scalar.LabelListIndexParams;
import org.lance.index.scalar.NGramIndexParams;
import org.lance.ipc.ScanOptions;

/**
 * Label list and n-gram indices both ways between Javelin and lance-core 7.0.0: the indices
 * lance-core built answer Javelin's filters as Javelin's unindexed scan does; the indices Javelin
 * built are listed by lance-core with their kinds, answer lance-core's filters as its unindexed
 * scan does, and are optimized by lance-core after an append.
 */
class ListAndTextIndexCompatTest {
  static final Schema SCHEMA = new Schema(List.of(
      new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
      new Field("tags", FieldType.nullable(ArrowType.List.INSTANCE),
          List.of(Field.nullable("item", ArrowType.Utf8.INSTANCE))),
      Field.nullable("title", ArrowType.Utf8.INSTANCE)));
  static final String[] WORDS = {"apple", "Banana", "cherry", "date", "Éclair", "straße", "fig", "grape", "kiwi",
      "Crème brûlée", "Ærø", "naïve café"};

  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  // Row r's tags: null every 17th row, empty every 13th, else 1-3 of t0..t19 (a null item now and then).
  static List<String> tags(long r) {
    if (r % 17 == 0) {
      return null;
    }
    List<String> out = new ArrayList<>();
    for (int k = 0; r % 13 != 0 && k <= r % 3; k++) {
      out.add(r % 29 == 5 && k == 1 ? null : "t" + (r * (k + 3)) % 20);
    }
    return out;
  }

  static String title(long r) {
    return r % 23 == 0 ? null
        : WORDS[(int) (r % WORDS.length)] + " no" + r + " " + WORDS[(int) ((r / 5) % WORDS.length)];
  }

  static boolean deleted(long r) {
    return r < 2400 && r % 10 == 3;
  }

  private Dataset write(Dataset ds, Path path, long start, int rows) {
    List<VectorSchemaRoot> data = new ArrayList<>();
    for (long b = start; b < start + rows; b += 400) {
      int count = (int) Math.min(400, start + rows - b);
      VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator);
      root.allocateNew();
      ListVector tagVector = (ListVector) root.getVector("tags");
      UnionListWriter w = tagVector.getWriter();
      for (int i = 0; i < count; i++) {
        long r = b + i;
        ((BigIntVector) root.getVector("id")).setSafe(i, r);
        // Rows are set in order: ListVector.setNull forgets the lists set after the row.
        if (tags(r) == null) {
          tagVector.setNull(i);
        } else {
          w.setPosition(i);
          w.startList();
          for (String t : tags(r)) {
            if (t == null) {
              w.writeNull();
            } else {
              w.writeVarChar(t);
            }
          }
          w.endList();
        }
        if (title(r) == null) {
          ((VarCharVector) root.getVector("title")).setNull(i);
        } else {
          ((VarCharVector) root.getVector("title")).setSafe(i, title(r).getBytes(StandardCharsets.UTF_8));
        }
      }
      root.setRowCount(count);
      data.add(root);
    }
    try {
      WriteParams p = WriteParams.builder().fileVersion(LanceFileVersion.V2_1).maxRowsPerFile(800).build();
      return ds == null ? Dataset.create(path, data, p, allocator) : ds.append(data, p);
    } finally {
      data.forEach(VectorSchemaRoot::close);
    }
  }

  record Filter(String sql, IndexType type, LongPredicate matches) {}

  static boolean hasTag(long r, String t) {
    return tags(r) != null && tags(r).contains(t);
  }

  static boolean titleHas(long r, String s) {
    return title(r) != null && title(r).contains(s);
  }

  static final List<Filter> FILTERS = List.of(
      new Filter("array_has_any(tags, ['t3', 't7', 'zz'])", IndexType.LABEL_LIST,
          r -> hasTag(r, "t3") || hasTag(r, "t7")),
      new Filter("array_has_all(tags, ['t4', 't8'])", IndexType.LABEL_LIST, r -> hasTag(r, "t4") && hasTag(r, "t8")),
      new Filter("array_has_any(tags, ['t11'])", IndexType.LABEL_LIST, r -> hasTag(r, "t11")),
      new Filter("contains(title, 'grape no1')", IndexType.NGRAM, r -> titleHas(r, "grape no1")),
      new Filter("contains(title, 'no2')", IndexType.NGRAM, r -> titleHas(r, "no2")),
      new Filter("contains(title, 'banana')", IndexType.NGRAM, r -> titleHas(r, "banana")),
      new Filter("contains(title, 'Éclair no4')", IndexType.NGRAM, r -> titleHas(r, "Éclair no4")),
      new Filter("contains(title, 'straße no')", IndexType.NGRAM, r -> titleHas(r, "straße no")),
      new Filter("contains(title, 'Crème brûlée no1')", IndexType.NGRAM, r -> titleHas(r, "Crème brûlée no1")),
      new Filter("contains(title, 'Ærø no1')", IndexType.NGRAM, r -> titleHas(r, "Ærø no1")),
      new Filter("contains(title, 'naïve café no')", IndexType.NGRAM, r -> titleHas(r, "naïve café no")),
      new Filter("contains(title, 'zzzz')", IndexType.NGRAM, r -> false));

  static TreeSet<Long> expected(long rows, LongPredicate matches) {
    TreeSet<Long> out = new TreeSet<>();
    for (long r = 0; r < rows; r++) {
      if (!deleted(r) && matches.test(r)) {
        out.add(r);
      }
    }
    return out;
  }

  static List<Long> javelinIds(Dataset ds, String filter, boolean useIndex) throws Exception {
    List<Long> out = new ArrayList<>();
    try (ArrowReader r = ds.newScan().columns("id").filter(filter).useIndex(useIndex).build()) {
      while (r.loadNextBatch()) {
        BigIntVector id = (BigIntVector) r.getVectorSchemaRoot().getVector("id");
        for (int i = 0; i < id.getValueCount(); i++) {
          out.add(id.get(i));
        }
      }
    }
    return out;
  }

  static List<Long> lanceIds(org.lance.Dataset lance, String filter, boolean useIndex) throws Exception {
    List<Long> out = new ArrayList<>();
    try (var scanner = lance.newScan(new ScanOptions.Builder().columns(List.of("id")).filter(filter)
        .useScalarIndex(useIndex).build()); ArrowReader r = scanner.scanBatches()) {
      while (r.loadNextBatch()) {
        BigIntVector id = (BigIntVector) r.getVectorSchemaRoot().getVector("id");
        for (int i = 0; i < id.getValueCount(); i++) {
          out.add(id.get(i));
        }
      }
    }
    return out;
  }

  static void checkJavelin(Dataset ds, long rows, String when) throws Exception {
    for (Filter f : FILTERS) {
      List<Long> indexed = javelinIds(ds, f.sql(), true);
      assertThat(indexed).as("%s, Javelin indexed: %s", when, f.sql()).doesNotHaveDuplicates();
      assertThat(new TreeSet<>(indexed)).as("%s, Javelin indexed: %s", when, f.sql())
          .isEqualTo(new TreeSet<>(javelinIds(ds, f.sql(), false)))
          .isEqualTo(expected(rows, f.matches()));
      assertThat(ds.countRows(f.sql())).as("%s, count: %s", when, f.sql()).isEqualTo(indexed.size());
      ScanPlan plan = ds.explain(f.sql());
      assertThat(plan.indices()).as("%s: %s", when, f.sql()).extracting(ScanPlan.IndexUse::type)
          .containsExactly(f.type());
    }
  }

  static void checkLance(org.lance.Dataset lance, long rows, String when) throws Exception {
    for (Filter f : FILTERS) {
      List<Long> indexed = lanceIds(lance, f.sql(), true);
      assertThat(indexed).as("%s, lance-core indexed: %s", when, f.sql()).doesNotHaveDuplicates();
      assertThat(new TreeSet<>(indexed)).as("%s, lance-core indexed: %s", when, f.sql())
          .isEqualTo(new TreeSet<>(lanceIds(lance, f.sql(), false)))
          .isEqualTo(expected(rows, f.matches()));
    }
  }

  // lance-core answers `filter` through an index (it reads fewer rows than the dataset holds).
  static void assertLanceUsesIndex(org.lance.Dataset lance, String filter, long rows) throws Exception {
    try (var scanner = lance.newScan(new ScanOptions.Builder().columns(List.of("id")).filter(filter)
        .useScalarIndex(true).collectStats(true).build()); ArrowReader r = scanner.scanBatches()) {
      while (r.loadNextBatch()) {
        // drain
      }
      assertThat(scanner.getStats()).hasValueSatisfying(stats -> {
        assertThat(stats.getIndexComparisons()).as("%s: %s", filter, stats).isPositive();
        assertThat(stats.getAllCounts().get("rows_scanned")).as("%s: %s", filter, stats).isLessThan(rows / 2);
      });
    }
  }

  @Test
  void javelinAnswersWithIndicesLanceCoreBuilt() throws Exception {
    Path path = dir.resolve("ds");
    Dataset ds = write(null, path, 0, 2400).delete("id % 10 = 3");
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      lance.createIndex(List.of("tags"), org.lance.index.IndexType.LABEL_LIST, Optional.empty(),
          IndexParams.builder().setScalarIndexParams(LabelListIndexParams.builder().build()).build(), false);
      lance.createIndex(List.of("title"), org.lance.index.IndexType.NGRAM, Optional.empty(),
          IndexParams.builder().setScalarIndexParams(NGramIndexParams.builder().build()).build(), false);
    }
    ds = ds.checkoutLatest();
    assertThat(ds.indices()).extracting(IndexInfo::type).containsExactly(IndexType.LABEL_LIST, IndexType.NGRAM);
    checkJavelin(ds, 2400, "lance-core's indices");
    // An appended fragment the indices do not cover is scanned; Javelin's optimize extends lance-core's indices.
    ds = write(ds, path, 2400, 500);
    assertThat(ds.explain("contains(title, 'no2')").scannedFragments()).containsExactly(3L);
    checkJavelin(ds, 2900, "lance-core's indices after an append");
    ds = ds.optimizeIndices().dataset();
    assertThat(ds.explain("contains(title, 'no2')").scannedFragments()).isEmpty();
    checkJavelin(ds, 2900, "lance-core's indices optimized by Javelin");
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      checkLance(lance, 2900, "lance-core's indices optimized by Javelin");
    }
  }

  @Test
  void lanceCoreListsUsesAndOptimizesIndicesJavelinBuilt() throws Exception {
    Path path = dir.resolve("ds");
    Dataset ds = write(null, path, 0, 2400).delete("id % 10 = 3");
    ds = ds.createIndex("tags").labelList().commit().dataset();
    ds = ds.createIndex("title").ngram().commit().dataset();
    checkJavelin(ds, 2400, "Javelin's indices");
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      assertThat(lance.getIndexes()).extracting(org.lance.index.Index::indexType)
          .containsExactly(org.lance.index.IndexType.LABEL_LIST, org.lance.index.IndexType.NGRAM);
      checkLance(lance, 2400, "Javelin's indices");
      assertLanceUsesIndex(lance, "array_has_any(tags, ['t11'])", 2400);
      assertLanceUsesIndex(lance, "contains(title, 'grape no1')", 2400);
    }
    ds = write(ds.checkoutLatest(), path, 2400, 500);
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      checkLance(lance, 2900, "Javelin's indices after an append");
      lance.optimizeIndices(OptimizeOptions.builder().numIndicesToMerge(1).build());
    }
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      checkLance(lance, 2900, "Javelin's indices optimized by lance-core");
    }
    ds = ds.checkoutLatest();
    assertThat(ds.explain("contains(title, 'no2')").scannedFragments()).isEmpty();
    checkJavelin(ds, 2900, "Javelin's indices optimized by lance-core");
  }
}
