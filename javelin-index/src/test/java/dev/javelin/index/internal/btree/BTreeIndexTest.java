package dev.javelin.index.internal.btree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.format.LanceFileReader;
import dev.javelin.index.RowAddressMap;
import dev.javelin.io.CountingInputFile;
import dev.javelin.io.InputFile;
import dev.javelin.io.LocalObjectStore;
import dev.javelin.io.ObjectStore;
import dev.javelin.testing.ForwardingObjectStore;
import dev.javelin.testing.TestAllocator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Predicate;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.roaringbitmap.longlong.Roaring64NavigableMap;

class BTreeIndexTest {
  @TempDir Path dir;
  @TestAllocator RootAllocator allocator;
  LocalObjectStore store;

  @BeforeEach
  void setUp() {
    store = new LocalObjectStore(dir.resolve("ds"));
  }

  /** Rows of one column: value (null allowed) at an address. */
  static final class Rows<T> {
    final List<T> values = new ArrayList<>();
    final long[] addresses;

    Rows(int n) {
      addresses = new long[n];
    }
  }

  private Rows<Integer> ints(int n, long seed) {
    Random r = new Random(seed);
    Rows<Integer> rows = new Rows<>(n);
    for (int i = 0; i < n; i++) {
      rows.values.add(r.nextInt(10) == 0 ? null : r.nextInt(500) - 250);
      rows.addresses[i] = ((long) (i / 1000) << 32) | (i % 1000);
    }
    return rows;
  }

  private IntVector intVector(List<Integer> values) {
    IntVector v = new IntVector("x", allocator);
    v.allocateNew(values.size());
    for (int i = 0; i < values.size(); i++) {
      if (values.get(i) != null) {
        v.set(i, values.get(i));
      }
    }
    v.setValueCount(values.size());
    return v;
  }

  private <T> Roaring64NavigableMap brute(Rows<T> rows, Predicate<T> p, boolean nulls) {
    Roaring64NavigableMap out = new Roaring64NavigableMap();
    for (int i = 0; i < rows.addresses.length; i++) {
      T v = rows.values.get(i);
      if (v == null ? nulls : p.test(v)) {
        out.addLong(rows.addresses[i]);
      }
    }
    return out;
  }

  private void build(FieldVector values, long[] addresses, String uuid, BTreeIndexBuilder.Options options)
      throws IOException {
    try (BTreeIndexBuilder b = new BTreeIndexBuilder(values.getField(), options, allocator)) {
      // In three slices, to exercise several adds.
      int n = addresses.length;
      b.add(values, addresses, 0, n / 3);
      b.add(values, addresses, n / 3, n - n / 3);
      b.finish(store, BTreeIndex.directory(uuid));
    }
  }

  @Test
  void intQueriesMatchBruteForceWithAndWithoutSpilling() throws IOException {
    Rows<Integer> rows = ints(20_000, 1);
    try (IntVector v = intVector(rows.values)) {
      build(v, rows.addresses, "mem", BTreeIndexBuilder.Options.defaults().batchSize(256));
      build(v, rows.addresses, "spill",
          BTreeIndexBuilder.Options.defaults().batchSize(256).memoryBudget(16 << 10).spillDirectory(dir));
    }
    for (String uuid : List.of("mem", "spill")) {
      try (BTreeIndex index = BTreeIndex.open(store, uuid, allocator)) {
        assertThat(index.pageCount()).isEqualTo(79);
        assertThat(index.search(ScalarQuery.equalTo(7))).isEqualTo(brute(rows, x -> x == 7, false));
        assertThat(index.search(ScalarQuery.equalTo(7777))).isEqualTo(new Roaring64NavigableMap());
        assertThat(index.search(ScalarQuery.lessThan(-100))).isEqualTo(brute(rows, x -> x < -100, false));
        assertThat(index.search(ScalarQuery.lessOrEqual(-100))).isEqualTo(brute(rows, x -> x <= -100, false));
        assertThat(index.search(ScalarQuery.greaterThan(240))).isEqualTo(brute(rows, x -> x > 240, false));
        assertThat(index.search(ScalarQuery.greaterOrEqual(240))).isEqualTo(brute(rows, x -> x >= 240, false));
        assertThat(index.search(ScalarQuery.between(-3, 3))).isEqualTo(brute(rows, x -> x >= -3 && x <= 3, false));
        assertThat(index.search(ScalarQuery.between(3, -3))).isEqualTo(new Roaring64NavigableMap());
        assertThat(index.search(ScalarQuery.in(List.of(1, 100, -250, 9999))))
            .isEqualTo(brute(rows, x -> x == 1 || x == 100 || x == -250, false));
        assertThat(index.search(ScalarQuery.isNull())).isEqualTo(brute(rows, x -> false, true));
        assertThat(index.search(ScalarQuery.greaterThan(-1000)).getLongCardinality())
            .isEqualTo(rows.values.stream().filter(x -> x != null).count());
      }
    }
  }

  @Test
  void intQueriesWithoutNullsMatchBruteForceAtEveryBound() throws IOException {
    // No nulls: pages are found by binary search over the lookup and rows within a page too;
    // duplicates run across page boundaries.
    Random r = new Random(2);
    Rows<Integer> rows = new Rows<>(5000);
    for (int i = 0; i < 5000; i++) {
      rows.values.add(r.nextInt(300) - 150);
      rows.addresses[i] = ((long) (i / 700) << 32) | (i % 700);
    }
    try (IntVector v = intVector(rows.values)) {
      build(v, rows.addresses, "nn", BTreeIndexBuilder.Options.defaults().batchSize(64));
    }
    try (BTreeIndex index = BTreeIndex.open(store, "nn", allocator)) {
      for (int x = -152; x <= 152; x += 3) {
        int y = x;
        assertThat(index.search(ScalarQuery.equalTo(y))).as("= %d", y).isEqualTo(brute(rows, z -> z == y, false));
        assertThat(index.search(ScalarQuery.lessThan(y))).as("< %d", y).isEqualTo(brute(rows, z -> z < y, false));
        assertThat(index.search(ScalarQuery.lessOrEqual(y))).isEqualTo(brute(rows, z -> z <= y, false));
        assertThat(index.search(ScalarQuery.greaterThan(y))).isEqualTo(brute(rows, z -> z > y, false));
        assertThat(index.search(ScalarQuery.greaterOrEqual(y))).isEqualTo(brute(rows, z -> z >= y, false));
        assertThat(index.search(ScalarQuery.between(y, y + 7)))
            .isEqualTo(brute(rows, z -> z >= y && z <= y + 7, false));
      }
    }
  }

  @Test
  void filesAreSortedNullsFirstInPagesWithALookupRowEach() throws IOException {
    Rows<Integer> rows = ints(1000, 2);
    try (IntVector v = intVector(rows.values)) {
      build(v, rows.addresses, "u", BTreeIndexBuilder.Options.defaults().batchSize(300));
    }
    try (LanceFileReader data = LanceFileReader.open(store.open("_indices/u/page_data.lance"), allocator);
        ArrowReader in = data.read(List.of("values", "ids"));
        LanceFileReader lookup = LanceFileReader.open(store.open("_indices/u/page_lookup.lance"), allocator);
        ArrowReader lin = lookup.read((List<String>) null)) {
      List<Integer> sorted = new ArrayList<>();
      while (in.loadNextBatch()) {
        IntVector values = (IntVector) in.getVectorSchemaRoot().getVector("values");
        for (int i = 0; i < values.getValueCount(); i++) {
          sorted.add(values.isNull(i) ? null : values.get(i));
        }
      }
      List<Integer> expected = new ArrayList<>(rows.values);
      expected.sort(java.util.Comparator.nullsFirst(java.util.Comparator.naturalOrder()));
      assertThat(sorted).isEqualTo(expected);
      assertThat(lookup.lanceSchema().metadata())
          .containsEntry("batch_size", "300").containsEntry("range_partitioned", "false");
      assertThat(lin.loadNextBatch()).isTrue();
      VectorSchemaRoot l = lin.getVectorSchemaRoot();
      assertThat(l.getRowCount()).isEqualTo(4);
      assertThat(l.getSchema().getFields()).extracting(f -> f.getName())
          .containsExactly("min", "max", "null_count", "page_idx");
      for (int p = 0; p < 4; p++) {
        int last = Math.min(1000, (p + 1) * 300) - 1;
        assertThat(l.getVector("min").getObject(p)).isEqualTo(expected.get(p * 300));
        assertThat(l.getVector("max").getObject(p)).isEqualTo(expected.get(last));
        long nulls = expected.subList(p * 300, last + 1).stream().filter(x -> x == null).count();
        assertThat(((Number) l.getVector("null_count").getObject(p)).longValue()).isEqualTo(nulls);
        assertThat(((Number) l.getVector("page_idx").getObject(p)).intValue()).isEqualTo(p);
      }
    }
  }

  @Test
  void stringsDoublesAndBooleansOrderAsLance() throws IOException {
    Random r = new Random(3);
    int n = 5000;
    long[] addr = new long[n];
    Rows<String> s = new Rows<>(n);
    Rows<Double> d = new Rows<>(n);
    Rows<Boolean> b = new Rows<>(n);
    String[] words = {"", "a", "ab", "b", "é", "zz", "Z", "日本"};
    double[] nums = {Double.NaN, Double.NEGATIVE_INFINITY, -1.5, -0.0, 0.0, 2.5, Double.POSITIVE_INFINITY};
    try (VarCharVector sv = new VarCharVector("s", allocator);
        Float8Vector dv = new Float8Vector("d", allocator);
        BitVector bv = new BitVector("b", allocator)) {
      sv.allocateNew();
      dv.allocateNew(n);
      bv.allocateNew(n);
      for (int i = 0; i < n; i++) {
        addr[i] = i * 7L;
        s.addresses[i] = d.addresses[i] = b.addresses[i] = addr[i];
        String w = r.nextInt(8) == 0 ? null : words[r.nextInt(words.length)] + (r.nextBoolean() ? "" : "x");
        s.values.add(w);
        if (w != null) {
          sv.setSafe(i, w.getBytes(StandardCharsets.UTF_8));
        }
        Double x = r.nextInt(8) == 0 ? null : nums[r.nextInt(nums.length)];
        d.values.add(x);
        if (x != null) {
          dv.set(i, x);
        }
        Boolean y = r.nextInt(8) == 0 ? null : r.nextBoolean();
        b.values.add(y);
        if (y != null) {
          bv.set(i, y ? 1 : 0);
        }
      }
      sv.setValueCount(n);
      dv.setValueCount(n);
      bv.setValueCount(n);
      BTreeIndexBuilder.Options o = BTreeIndexBuilder.Options.defaults().batchSize(100).memoryBudget(8 << 10)
          .spillDirectory(dir);
      build(sv, addr, "s", o);
      build(dv, addr, "d", o);
      build(bv, addr, "b", o);
    }
    // Strings by UTF-8 bytes, i.e. by code point: "Z" < "a" < "é" < "日本".
    java.util.Comparator<String> utf8 = (x, y) -> Arrays.compareUnsigned(x.getBytes(StandardCharsets.UTF_8),
        y.getBytes(StandardCharsets.UTF_8));
    try (BTreeIndex index = BTreeIndex.open(store, "s", allocator)) {
      assertThat(index.search(ScalarQuery.equalTo("ab"))).isEqualTo(brute(s, x -> x.equals("ab"), false));
      assertThat(index.search(ScalarQuery.equalTo(""))).isEqualTo(brute(s, x -> x.isEmpty(), false));
      assertThat(index.search(ScalarQuery.lessThan("b"))).isEqualTo(brute(s, x -> utf8.compare(x, "b") < 0, false));
      assertThat(index.search(ScalarQuery.greaterOrEqual("é")))
          .isEqualTo(brute(s, x -> utf8.compare(x, "é") >= 0, false));
      assertThat(index.search(ScalarQuery.between("a", "b")))
          .isEqualTo(brute(s, x -> utf8.compare(x, "a") >= 0 && utf8.compare(x, "b") <= 0, false));
      assertThat(index.search(ScalarQuery.isNull())).isEqualTo(brute(s, x -> false, true));
    }
    // Doubles in total order: NaN equals NaN and is above +inf; -0.0 is below 0.0.
    try (BTreeIndex index = BTreeIndex.open(store, "d", allocator)) {
      assertThat(index.search(ScalarQuery.equalTo(Double.NaN))).isEqualTo(brute(d, x -> x.isNaN(), false));
      assertThat(index.search(ScalarQuery.greaterThan(Double.POSITIVE_INFINITY)))
          .isEqualTo(brute(d, x -> x.isNaN(), false));
      assertThat(index.search(ScalarQuery.lessThan(0.0)))
          .isEqualTo(brute(d, x -> Double.compare(x, 0.0) < 0, false));
      assertThat(index.search(ScalarQuery.equalTo(0))).isEqualTo(brute(d, x -> Double.compare(x, 0.0) == 0, false));
      assertThat(index.search(ScalarQuery.between(-2, 3)))
          .isEqualTo(brute(d, x -> Double.compare(x, -2.0) >= 0 && Double.compare(x, 3.0) <= 0, false));
    }
    try (BTreeIndex index = BTreeIndex.open(store, "b", allocator)) {
      assertThat(index.search(ScalarQuery.equalTo(true))).isEqualTo(brute(b, x -> x, false));
      assertThat(index.search(ScalarQuery.lessThan(true))).isEqualTo(brute(b, x -> !x, false));
      assertThat(index.search(ScalarQuery.isNull())).isEqualTo(brute(b, x -> false, true));
    }
  }

  @Test
  void floatsUnsignedLongsAndDatesOrderAsLance() throws IOException {
    int n = 64;
    long[] addr = new long[n];
    try (org.apache.arrow.vector.Float4Vector f = new org.apache.arrow.vector.Float4Vector("f", allocator);
        org.apache.arrow.vector.UInt8Vector u = new org.apache.arrow.vector.UInt8Vector("u", allocator);
        org.apache.arrow.vector.DateDayVector d = new org.apache.arrow.vector.DateDayVector("d", allocator)) {
      f.allocateNew(n);
      u.allocateNew(n);
      d.allocateNew(n);
      float[] fs = {Float.NaN, Float.NEGATIVE_INFINITY, -1f, -0f, 0f, 1f, Float.POSITIVE_INFINITY, 3.5f};
      for (int i = 0; i < n; i++) {
        addr[i] = i;
        f.set(i, fs[i % 8]);
        u.set(i, i % 2 == 0 ? i : -i); // odd rows are above 2^63 unsigned
        d.set(i, i * 100 - 3000);
      }
      f.setValueCount(n);
      u.setValueCount(n);
      d.setValueCount(n);
      build(f, addr, "f", BTreeIndexBuilder.Options.defaults().batchSize(5));
      build(u, addr, "u", BTreeIndexBuilder.Options.defaults().batchSize(5));
      build(d, addr, "d", BTreeIndexBuilder.Options.defaults().batchSize(5));
    }
    Roaring64NavigableMap nan = new Roaring64NavigableMap();
    Roaring64NavigableMap negatives = new Roaring64NavigableMap();
    Roaring64NavigableMap odd = new Roaring64NavigableMap();
    Roaring64NavigableMap after1970 = new Roaring64NavigableMap();
    for (int i = 0; i < n; i++) {
      if (i % 8 == 0) {
        nan.addLong(i);
      }
      if (i % 8 == 1 || i % 8 == 2 || i % 8 == 3) {
        negatives.addLong(i); // -inf, -1, -0.0: below 0.0 in total order
      }
      if (i % 2 == 1) {
        odd.addLong(i);
      }
      if (i * 100 - 3000 >= 0) {
        after1970.addLong(i);
      }
    }
    try (BTreeIndex index = BTreeIndex.open(store, "f", allocator)) {
      assertThat(index.search(ScalarQuery.equalTo(Float.NaN))).isEqualTo(nan);
      assertThat(index.search(ScalarQuery.lessThan(0.0f))).isEqualTo(negatives);
    }
    try (BTreeIndex index = BTreeIndex.open(store, "u", allocator)) {
      assertThat(index.search(ScalarQuery.greaterThan(Long.MAX_VALUE))).isEqualTo(odd);
    }
    try (BTreeIndex index = BTreeIndex.open(store, "d", allocator)) {
      assertThat(index.search(ScalarQuery.greaterOrEqual(java.time.LocalDate.of(1970, 1, 1)))).isEqualTo(after1970);
      assertThat(index.search(ScalarQuery.equalTo(java.time.LocalDate.ofEpochDay(-2900))))
          .isEqualTo(Roaring64NavigableMap.bitmapOf(1));
    }
  }

  @Test
  void aPointQueryReadsTheLookupAndOnePageOnly() throws IOException {
    int n = 200_000;
    long[] addr = new long[n];
    try (BigIntVector v = new BigIntVector("x", allocator)) {
      v.allocateNew(n);
      for (int i = 0; i < n; i++) {
        v.set(i, (i * 7919L) % n);
        addr[i] = i;
      }
      v.setValueCount(n);
      build(v, addr, "big", BTreeIndexBuilder.Options.defaults());
    }
    long fileSize = Files.size(store.path("_indices/big/page_data.lance"));
    List<CountingInputFile> opened = new ArrayList<>();
    ObjectStore counting = new ForwardingObjectStore(store) {
      @Override
      public InputFile open(String key) throws IOException {
        CountingInputFile f = new CountingInputFile(store.open(key));
        if (key.endsWith("page_data.lance")) {
          opened.add(f);
        }
        return f;
      }
    };
    try (BTreeIndex index = BTreeIndex.open(counting, "big", allocator)) {
      assertThat(index.pageCount()).isEqualTo(49);
      Roaring64NavigableMap hit = index.search(ScalarQuery.equalTo(12345L));
      assertThat(hit.getLongCardinality()).isEqualTo(1);
      long at = hit.iterator().next();
      assertThat((at * 7919L) % n).isEqualTo(12345L);
      long read = opened.stream().mapToLong(CountingInputFile::bytesRead).sum();
      assertThat(read).isGreaterThan(0).isLessThan(fileSize / 4);
      opened.clear();
      assertThat(index.search(ScalarQuery.greaterThan((long) n))).isEqualTo(new Roaring64NavigableMap());
      assertThat(opened).isEmpty(); // no page can match: the data file is not even opened
    }
  }

  @Test
  void remapRewritesAddressesDropsDeletedRowsAndKeepsOrder() throws IOException {
    Rows<Integer> rows = ints(3000, 4);
    try (IntVector v = intVector(rows.values)) {
      build(v, rows.addresses, "old", BTreeIndexBuilder.Options.defaults().batchSize(128));
    }
    // Fragments 0 and 1 were compacted into fragment 5 (row offsets concatenated), every 10th
    // row of them deleted; fragment 2 is untouched.
    RowAddressMap map = a -> {
      long frag = a >>> 32;
      long off = a & 0xFFFFFFFFL;
      if (frag > 1) {
        return a;
      }
      long i = frag * 1000 + off;
      return i % 10 == 0 ? RowAddressMap.DELETED : (5L << 32) | (i - i / 10 - 1);
    };
    try (BTreeIndex index = BTreeIndex.open(store, "old", allocator)) {
      index.remap(map, "new", BTreeIndexBuilder.Options.defaults());
    }
    Rows<Integer> moved = new Rows<>(rows.addresses.length);
    for (int i = 0; i < rows.addresses.length; i++) {
      moved.addresses[i] = map.map(rows.addresses[i]);
      moved.values.add(moved.addresses[i] == RowAddressMap.DELETED ? null : rows.values.get(i));
    }
    try (BTreeIndex index = BTreeIndex.open(store, "new", allocator)) {
      Roaring64NavigableMap nulls = brute(moved, x -> false, true);
      nulls.removeLong(RowAddressMap.DELETED);
      assertThat(index.search(ScalarQuery.isNull())).isEqualTo(nulls);
      assertThat(index.search(ScalarQuery.between(-10, 10))).isEqualTo(brute(moved, x -> x >= -10 && x <= 10, false));
      assertThat(index.search(ScalarQuery.greaterOrEqual(0))).isEqualTo(brute(moved, x -> x >= 0, false));
    }
    try (LanceFileReader data = LanceFileReader.open(store.open("_indices/new/page_data.lance"), allocator)) {
      assertThat(data.numRows()).isEqualTo(2800);
    }
  }

  @Test
  void rejectsUnindexableTypesAndMismatchedQueryValues() throws IOException {
    try (org.apache.arrow.vector.complex.ListVector list =
        org.apache.arrow.vector.complex.ListVector.empty("l", allocator)) {
      assertThatThrownBy(() -> new BTreeIndexBuilder(list.getField(), BTreeIndexBuilder.Options.defaults(), allocator))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("A BTree index cannot index values of type List");
    }
    Rows<Integer> rows = ints(10, 5);
    try (IntVector v = intVector(rows.values)) {
      build(v, rows.addresses, "i", BTreeIndexBuilder.Options.defaults());
    }
    try (BTreeIndex index = BTreeIndex.open(store, "i", allocator)) {
      assertThatThrownBy(() -> index.search(ScalarQuery.equalTo("x")))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("Cannot compare a String (x) with values of type Int(32, true)");
      assertThatThrownBy(() -> index.search(ScalarQuery.equalTo(1L << 40)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("Value 1099511627776 is out of range for values of type Int(32, true)");
    }
  }
}
