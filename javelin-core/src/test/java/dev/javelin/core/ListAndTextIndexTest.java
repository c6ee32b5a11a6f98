package dev.javelin.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.format.LanceFileVersion;
import dev.javelin.index.IndexType;
import dev.javelin.testing.TestAllocator;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.LongPredicate;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.IntVector;
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

/**
 * Label list indices (array_has_any / array_has_all / array_has on list columns) and n-gram indices
 * (contains and LIKE on string columns): built, used by filtered scans, counts, deletes and updates,
 * extended by optimize, and always answering as a full scan does.
 */
class ListAndTextIndexTest {
  static final Schema SCHEMA = new Schema(List.of(
      new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
      new Field("tags", FieldType.nullable(ArrowType.List.INSTANCE),
          List.of(Field.nullable("item", ArrowType.Utf8.INSTANCE))),
      new Field("nums", FieldType.nullable(ArrowType.List.INSTANCE),
          List.of(Field.nullable("item", new ArrowType.Int(32, true)))),
      Field.nullable("title", ArrowType.Utf8.INSTANCE)));
  static final String[] WORDS = {"apple", "Banana", "cherry", "date", "Éclair", "straße", "fig", "grape", "kiwi"};

  @TempDir Path dir;
  @TestAllocator RootAllocator allocator;

  // Row r's tags: null every 17th row, empty every 13th, else 1-3 of t0..t19 (null items now and then).
  static List<String> tags(long r) {
    if (r % 17 == 0) {
      return null;
    }
    List<String> out = new ArrayList<>();
    if (r % 13 == 0) {
      return out;
    }
    for (int k = 0; k <= r % 3; k++) {
      out.add(r % 29 == 5 && k == 1 ? null : "t" + (r * (k + 3)) % 20);
    }
    return out;
  }

  static List<Integer> nums(long r) {
    return r % 11 == 0 ? null : List.of((int) (r % 7), (int) (r % 50) - 25);
  }

  static String title(long r) {
    return r % 23 == 0 ? null : WORDS[(int) (r % WORDS.length)] + " no" + r + " " + WORDS[(int) ((r / 3) % WORDS.length)];
  }

  private Dataset write(Dataset ds, Path path, long start, int rows) {
    List<VectorSchemaRoot> data = new ArrayList<>();
    for (long b = start; b < start + rows; b += 400) {
      int count = (int) Math.min(400, start + rows - b);
      VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator);
      root.allocateNew();
      UnionListWriter tw = ((ListVector) root.getVector("tags")).getWriter();
      UnionListWriter nw = ((ListVector) root.getVector("nums")).getWriter();
      for (int i = 0; i < count; i++) {
        long r = b + i;
        ((BigIntVector) root.getVector("id")).setSafe(i, r);
        // Rows are set in order: ListVector.setNull forgets the lists set after the row.
        if (tags(r) == null) {
          ((ListVector) root.getVector("tags")).setNull(i);
        } else {
          tw.setPosition(i);
          tw.startList();
          for (String t : tags(r)) {
            if (t == null) {
              tw.writeNull();
            } else {
              tw.writeVarChar(t);
            }
          }
          tw.endList();
        }
        if (nums(r) == null) {
          ((ListVector) root.getVector("nums")).setNull(i);
        } else {
          nw.setPosition(i);
          nw.startList();
          nums(r).forEach(nw::writeInt);
          nw.endList();
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
      WriteParams p = WriteParams.builder().fileVersion(LanceFileVersion.V2_1).maxRowsPerFile(600).build();
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
      new Filter("array_has(tags, 't11')", IndexType.LABEL_LIST, r -> hasTag(r, "t11")),
      new Filter("array_contains(nums, 3)", IndexType.LABEL_LIST, r -> nums(r) != null && nums(r).contains(3)),
      new Filter("array_has_any(nums, [-25, 24]) AND id < 2000", IndexType.LABEL_LIST,
          r -> nums(r) != null && (nums(r).contains(-25) || nums(r).contains(24)) && r < 2000),
      new Filter("contains(title, 'grape no1')", IndexType.NGRAM, r -> titleHas(r, "grape no1")),
      new Filter("title LIKE '%cherry no2%'", IndexType.NGRAM, r -> titleHas(r, "cherry no2")),
      new Filter("title LIKE 'Ban%no_9%'", IndexType.NGRAM,
          r -> title(r) != null && title(r).matches("Ban.*no.9.*")),
      new Filter("contains(title, 'banana')", IndexType.NGRAM, r -> titleHas(r, "banana")),
      new Filter("contains(title, 'Éclair no4')", IndexType.NGRAM, r -> titleHas(r, "Éclair no4")),
      new Filter("contains(title, 'straße no')", IndexType.NGRAM, r -> titleHas(r, "straße no")),
      new Filter("contains(title, 'zzzz')", IndexType.NGRAM, r -> false),
      new Filter("array_has(tags, 't1') OR contains(title, 'fig no')", null,
          r -> hasTag(r, "t1") || titleHas(r, "fig no")));

  static List<Long> ids(Dataset ds, String filter, boolean useIndex) throws Exception {
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

  static void check(Dataset ds, long rows, LongPredicate live, String when) throws Exception {
    for (Filter f : FILTERS) {
      TreeSet<Long> expected = new TreeSet<>();
      for (long r = 0; r < rows; r++) {
        if (live.test(r) && f.matches().test(r)) {
          expected.add(r);
        }
      }
      List<Long> indexed = ids(ds, f.sql(), true);
      assertThat(indexed).as("%s: %s", when, f.sql()).doesNotHaveDuplicates();
      assertThat(new TreeSet<>(indexed)).as("%s: %s", when, f.sql()).isEqualTo(expected)
          .isEqualTo(new TreeSet<>(ids(ds, f.sql(), false)));
      assertThat(ds.countRows(f.sql())).as("%s, count: %s", when, f.sql()).isEqualTo(expected.size());
      ScanPlan plan = ds.explain(f.sql());
      assertThat(plan.usesIndex()).as("%s, uses an index: %s", when, f.sql()).isTrue();
      if (f.type() != null) {
        assertThat(plan.indices()).extracting(ScanPlan.IndexUse::type).as("%s: %s", when, f.sql())
            .containsOnly(f.type());
      } else {
        assertThat(plan.indices()).extracting(ScanPlan.IndexUse::type)
            .containsExactlyInAnyOrder(IndexType.LABEL_LIST, IndexType.NGRAM);
      }
    }
  }

  @Test
  void labelListAndNGramIndicesAnswerAsFullScansThroughDeletesUpdatesAppendsAndOptimize() throws Exception {
    Path path = dir.resolve("d");
    Dataset ds = write(null, path, 0, 1800).delete("id % 10 = 3");
    ds = ds.createIndex("tags").labelList().commit().dataset();
    ds = ds.createIndex("nums").labelList().commit().dataset();
    CreateIndexResult ngram = ds.createIndex("title").ngram().commit();
    ds = ngram.dataset();
    assertThat(ngram.index().type()).isEqualTo(IndexType.NGRAM);
    assertThat(ds.indices()).extracting(IndexInfo::type)
        .containsExactly(IndexType.LABEL_LIST, IndexType.LABEL_LIST, IndexType.NGRAM);
    check(ds, 1800, r -> r % 10 != 3, "built");
    ScanPlan plan = ds.explain("array_has(tags, 't11')");
    assertThat(plan.indices()).singleElement().satisfies(u -> {
      assertThat(u.name()).isEqualTo("tags_idx");
      assertThat(u.column()).isEqualTo("tags");
    });

    // Deletes and updates by an indexed filter find their rows through the index.
    ds = ds.delete("array_has_all(tags, ['t4', 't8'])");
    UpdateResult updated = ds.update("contains(title, 'kiwi no1')", Map.of("title", "'changed'"));
    long kiwi = 0;
    for (long r = 0; r < 1800; r++) {
      if (r % 10 != 3 && !(hasTag(r, "t4") && hasTag(r, "t8")) && titleHas(r, "kiwi no1")) {
        kiwi++;
      }
    }
    assertThat(updated.rowsUpdated()).isEqualTo(kiwi).isPositive();
    ds = updated.dataset();
    assertThat(ds.countRows("contains(title, 'kiwi no1')")).isZero();
    assertThat(ds.countRows("array_has_all(tags, ['t4', 't8'])")).isZero();

    // An append the indices do not cover is scanned; optimize takes it in.
    ds = write(ds, path, 1800, 700);
    assertThat(ds.explain("array_has(tags, 't11')").scannedFragments()).isNotEmpty();
    LongPredicate live = r -> !(r < 1800 && (r % 10 == 3 || (hasTag(r, "t4") && hasTag(r, "t8"))
        || titleHas(r, "kiwi no1")));
    checkAfterRewrite(ds, live);
    IndexOptimizeResult optimized = ds.optimizeIndices();
    ds = optimized.dataset();
    assertThat(optimized.indices()).extracting(OptimizedIndex::outcome).containsOnly(OptimizedIndex.Outcome.MERGED);
    assertThat(ds.indices()).extracting(IndexInfo::type)
        .containsExactlyInAnyOrder(IndexType.LABEL_LIST, IndexType.LABEL_LIST, IndexType.NGRAM);
    assertThat(ds.explain("array_has(tags, 't11') AND contains(title, 'fig')").scannedFragments()).isEmpty();
    checkAfterRewrite(ds, live);

    // Compaction remaps both kinds to the new fragments: they still answer for every fragment.
    Dataset compacted = ds.compact().targetRowsPerFragment(5000).commit().dataset();
    assertThat(compacted.manifest().fragments()).hasSizeLessThan(ds.manifest().fragments().size());
    assertThat(compacted.indices()).extracting(IndexInfo::uuid).doesNotContainAnyElementsOf(
        ds.indices().stream().map(IndexInfo::uuid).toList());
    assertThat(compacted.explain("array_has(tags, 't11') OR contains(title, 'fig no')").scannedFragments()).isEmpty();
    checkAfterRewrite(compacted, live);

    // A clustering answers through its row maps until settled, then directly.
    Dataset clustered = compacted.cluster().by("id").targetRowsPerFragment(900).commit().dataset();
    checkAfterRewrite(clustered, live);
    IndexSettleResult settled = clustered.settleIndices();
    assertThat(settled.remapped()).containsExactlyInAnyOrder("tags_idx", "nums_idx", "title_idx");
    ScanPlan settledPlan = settled.dataset().explain("array_has(tags, 't11') OR contains(title, 'fig no')");
    assertThat(settledPlan.scannedFragments()).isEmpty();
    assertThat(settledPlan.indices()).allSatisfy(u -> assertThat(u.throughRowMaps()).isEmpty());
    checkAfterRewrite(settled.dataset(), live);
  }

  // Indexed answers equal unindexed ones, and every row returned that was not updated (rows whose
  // title held 'kiwi no1') and is live matches the filter.
  private static void checkAfterRewrite(Dataset ds, LongPredicate live) throws Exception {
    for (Filter f : FILTERS) {
      List<Long> indexed = ids(ds, f.sql(), true);
      assertThat(indexed).as(f.sql()).doesNotHaveDuplicates();
      assertThat(new TreeSet<>(indexed)).as(f.sql()).isEqualTo(new TreeSet<>(ids(ds, f.sql(), false)));
      for (long id : indexed) {
        assertThat(live.test(id) || titleHas(id, "kiwi no1")).as("%s returned %d", f.sql(), id).isTrue();
        if (!titleHas(id, "kiwi no1") || id >= 1800) {
          assertThat(f.matches().test(id)).as("%s returned %d", f.sql(), id).isTrue();
        }
      }
      assertThat(ds.countRows(f.sql())).as(f.sql()).isEqualTo(indexed.size());
    }
  }

  @Test
  void refusesColumnsOfTheWrongType() {
    Dataset ds = write(null, dir.resolve("d"), 0, 100);
    assertThatThrownBy(() -> ds.createIndex("title").labelList().commit())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("A label list index needs a list column of integers, floats, strings, binaries, booleans, dates"
            + " or timestamps; column 'title' is of type Utf8: " + ds.location());
    assertThatThrownBy(() -> ds.createIndex("nums").ngram().commit())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("An n-gram index needs a string column; column 'nums' is of type List: " + ds.location());
    assertThat(ds.indices()).isEmpty();
  }
}
