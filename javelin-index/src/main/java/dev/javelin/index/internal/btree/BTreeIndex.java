package dev.javelin.index.internal.btree;

import dev.javelin.format.LanceFileReader;
import dev.javelin.format.ReadOptions;
import dev.javelin.index.RowAddressMap;
import dev.javelin.index.internal.IndexCache;
import dev.javelin.io.ObjectStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.util.TransferPair;
import org.roaringbitmap.longlong.Roaring64NavigableMap;

/**
 * An open BTree scalar index ({@code _indices/{uuid}/page_lookup.lance} and
 * {@code page_data.lance}, as Lance writes them). Opening reads the lookup file only; a query
 * reads just the pages whose [min, max] can hold a match, keeping the data file open and the
 * last {@link #CACHED_PAGES} pages it decoded for the next queries. Queries are safe from several
 * threads (they take turns). Close it to free the lookup; an instance shared through
 * {@link IndexCache} is freed when its last holder closes it.
 */
public final class BTreeIndex implements AutoCloseable {
  /** Decoded pages kept per open index (a page is {@code batch_size} rows, 4,096 by default). */
  static final int CACHED_PAGES = 64;

  private final ObjectStore store;
  private final String directory;
  private final BufferAllocator allocator;
  private final VectorSchemaRoot lookup;
  private final Field valueField;
  private final Keys keys;
  private final int batchSize;
  // Holders: the opener, plus one per IndexCache.open; freed at zero.
  private int refs = 1;
  private LanceFileReader pageData;
  private final LinkedHashMap<Integer, VectorSchemaRoot> pageCache =
      new LinkedHashMap<>(16, 0.75f, true);

  private BTreeIndex(ObjectStore store, String directory, VectorSchemaRoot lookup, int batchSize,
      BufferAllocator allocator) {
    this.store = store;
    this.directory = directory;
    this.lookup = lookup;
    this.allocator = allocator;
    this.valueField = lookup.getVector("min").getField();
    this.keys = Keys.forType(valueField.getType());
    this.batchSize = batchSize;
  }

  /** The key prefix of an index's files in a dataset: {@code _indices/{uuid}}. */
  public static String directory(String uuid) {
    return "_indices/" + uuid;
  }

  /**
   * Opens the index with this uuid in the dataset at {@code store}.
   *
   * @throws IOException if its lookup file cannot be read
   */
  public static BTreeIndex open(ObjectStore store, String uuid, BufferAllocator allocator) throws IOException {
    String dir = directory(uuid);
    try (LanceFileReader r = LanceFileReader.open(store.open(dir + "/" + PageSink.PAGE_LOOKUP), allocator)) {
      String bs = r.lanceSchema().metadata().get("batch_size");
      int batchSize = bs == null ? BTreeIndexBuilder.Options.DEFAULT_BATCH_SIZE : Integer.parseInt(bs.trim());
      VectorSchemaRoot all = VectorSchemaRoot.create(r.schema(), allocator);
      try (ArrowReader in = r.read(ReadOptions.builder().batchSize(1 << 20).build())) {
        int rows = 0;
        while (in.loadNextBatch()) {
          VectorSchemaRoot b = in.getVectorSchemaRoot();
          for (int c = 0; c < b.getFieldVectors().size(); c++) {
            for (int i = 0; i < b.getRowCount(); i++) {
              all.getVector(c).copyFromSafe(i, rows + i, b.getVector(c));
            }
          }
          rows += b.getRowCount();
        }
        all.setRowCount(rows);
      } catch (IOException | RuntimeException e) {
        all.close();
        throw e;
      }
      return new BTreeIndex(store, dir, all, batchSize, allocator);
    }
  }

  /** The indexed values' Arrow type, as a field named {@code values}. */
  public Field valueField() {
    return valueField;
  }

  /** Index pages (lookup rows). */
  public int pageCount() {
    return lookup.getRowCount();
  }

  /**
   * The row addresses of the rows matching {@code query}.
   *
   * @throws IllegalArgumentException if a query value cannot be compared with the indexed type
   */
  public synchronized Roaring64NavigableMap search(ScalarQuery query) throws IOException {
    checkOpen();
    List<FieldVector> literals = new ArrayList<>();
    try {
      if (query.kind() == ScalarQuery.Kind.IN) {
        // One vector of all the values, probed by binary search: a long IN list costs
        // log(values) per page and per row, not a pass over the list.
        literals.add(sortedLiterals(query.values()));
      } else {
        for (Object v : query.values()) {
          literals.add(keys.literal(valueField, v, allocator));
        }
      }
      List<Integer> pages = candidatePages(query, literals);
      long[][] found = {new long[64]};
      int[] count = {0};
      readPageRoots(pages, true, page -> {
        ValueVector values = page.getVector("values");
        UInt8Vector ids = (UInt8Vector) page.getVector("ids");
        int rows = page.getRowCount();
        int[] span = sortedSpan(query, literals, values, rows);
        for (int i = span == null ? 0 : span[0]; i < (span == null ? rows : span[1]); i++) {
          if (span != null || matches(query, literals, values, i)) {
            if (count[0] == found[0].length) {
              found[0] = Arrays.copyOf(found[0], found[0].length * 2);
            }
            found[0][count[0]++] = ids.get(i);
          }
        }
      });
      return toMap(found[0], count[0]);
    } finally {
      literals.forEach(FieldVector::close);
    }
  }

  // The map of the first n ids, added one fragment (high half) at a time: the map adds a run of
  // one fragment's rows far faster than rows that alternate between fragments, as value order
  // has them. Few fragments are picked out by passes over the ids; many by sorting them.
  private static Roaring64NavigableMap toMap(long[] ids, int n) {
    Roaring64NavigableMap out = new Roaring64NavigableMap();
    int[] highs = new int[8];
    int h = 0;
    for (int i = 0; i < n && h <= MAX_PASSES; i++) {
      int hi = (int) (ids[i] >>> 32);
      int j = 0;
      while (j < h && highs[j] != hi) {
        j++;
      }
      if (j == h) {
        if (h == highs.length) {
          highs = Arrays.copyOf(highs, 2 * h);
        }
        highs[h++] = hi;
      }
    }
    if (h > MAX_PASSES) {
      long[] sorted = Arrays.copyOf(ids, n);
      Arrays.sort(sorted);
      for (long id : sorted) {
        out.addLong(id);
      }
      return out;
    }
    for (int j = 0; j < h; j++) {
      for (int i = 0; i < n; i++) {
        if ((int) (ids[i] >>> 32) == highs[j]) {
          out.addLong(ids[i]);
        }
      }
    }
    return out;
  }

  private static final int MAX_PASSES = 32;

  private interface RowConsumer {
    void accept(ValueVector values, UInt8Vector ids, int i) throws IOException;
  }

  private interface PageConsumer {
    void accept(VectorSchemaRoot page) throws IOException;
  }

  /**
   * The rows [from, to) of a page that match the query, found by binary search, or null when the
   * page must be checked row by row: only integer keys (whose order is plain, so the page is in
   * {@link Keys#compareValues} order), pages without nulls, and one-interval queries.
   */
  private int[] sortedSpan(ScalarQuery q, List<FieldVector> lit, ValueVector values, int rows) {
    if (!(keys instanceof Keys.Integral) || values.getNullCount() > 0) {
      return null;
    }
    switch (q.kind()) {
      case EQUALS:
        return new int[] {firstAbove(values, rows, lit.get(0), false), firstAbove(values, rows, lit.get(0), true)};
      case LESS: return new int[] {0, firstAbove(values, rows, lit.get(0), false)};
      case LESS_OR_EQUAL: return new int[] {0, firstAbove(values, rows, lit.get(0), true)};
      case GREATER: return new int[] {firstAbove(values, rows, lit.get(0), true), rows};
      case GREATER_OR_EQUAL: return new int[] {firstAbove(values, rows, lit.get(0), false), rows};
      case BETWEEN: {
        int from = firstAbove(values, rows, lit.get(0), false);
        return new int[] {from, Math.max(from, firstAbove(values, rows, lit.get(1), true))};
      }
      default: return null;
    }
  }

  // In a sorted page: the first row whose value is > the literal (orEqual) or >= it (not orEqual).
  private int firstAbove(ValueVector values, int rows, FieldVector literal, boolean orEqual) {
    int lo = 0;
    int hi = rows;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      int c = keys.compareValues(values, mid, literal, 0);
      if (c < 0 || (orEqual && c == 0)) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  private boolean matches(ScalarQuery q, List<FieldVector> lit, ValueVector values, int i) {
    if (q.kind() == ScalarQuery.Kind.IS_NULL) {
      return values.isNull(i);
    }
    if (values.isNull(i)) {
      return false;
    }
    switch (q.kind()) {
      case EQUALS: return cmp(values, i, lit.get(0)) == 0;
      case LESS: return cmp(values, i, lit.get(0)) < 0;
      case LESS_OR_EQUAL: return cmp(values, i, lit.get(0)) <= 0;
      case GREATER: return cmp(values, i, lit.get(0)) > 0;
      case GREATER_OR_EQUAL: return cmp(values, i, lit.get(0)) >= 0;
      case BETWEEN: return cmp(values, i, lit.get(0)) >= 0 && cmp(values, i, lit.get(1)) <= 0;
      case IN: {
        FieldVector sorted = lit.get(0);
        int at = firstNotBelow(sorted, values, i);
        return at < sorted.getValueCount() && keys.compareValues(values, i, sorted, at) == 0;
      }
      default:
        throw new IllegalStateException("Unknown query kind " + q.kind());
    }
  }

  // The query values in one vector, in key order (the caller closes it).
  private FieldVector sortedLiterals(List<Object> values) {
    FieldVector all = new Field("literals", FieldType.nullable(valueField.getType()), null).createVector(allocator);
    try (FieldVector one = keys.literal(valueField, null, allocator)) {
      all.setInitialCapacity(values.size());
      all.allocateNew();
      for (int j = 0; j < values.size(); j++) {
        keys.setLiteral(one, values.get(j));
        all.copyFromSafe(0, j, one);
      }
      all.setValueCount(values.size());
      Integer[] order = new Integer[values.size()];
      for (int j = 0; j < order.length; j++) {
        order[j] = j;
      }
      Arrays.sort(order, (a, b) -> keys.compareValues(all, a, all, b));
      FieldVector sorted = new Field("literals", FieldType.nullable(valueField.getType()), null)
          .createVector(allocator);
      try {
        sorted.setInitialCapacity(values.size());
        sorted.allocateNew();
        for (int j = 0; j < order.length; j++) {
          sorted.copyFromSafe(order[j], j, all);
        }
        sorted.setValueCount(values.size());
        return sorted;
      } catch (RuntimeException e) {
        sorted.close();
        throw e;
      }
    } finally {
      all.close();
    }
  }

  // The first position of the sorted values not below value i of v.
  private int firstNotBelow(FieldVector sorted, ValueVector v, int i) {
    int lo = 0;
    int hi = sorted.getValueCount();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (keys.compareValues(sorted, mid, v, i) < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  private int cmp(ValueVector values, int i, FieldVector literal) {
    return keys.compareValues(values, i, literal, 0);
  }

  // The pages' min and max as sorted long keys, when every page has both (no nulls) and they
  // never decrease; null otherwise, or before the first query that could use them.
  private long[] minKeys;
  private long[] maxKeys;
  private boolean keysChecked;

  // Pages [first, last] whose range meets [lo, hi] by binary search over the pages' sorted keys
  // (lo/hi null: unbounded), or null when the lookup does not allow it.
  private List<Integer> sortedCandidates(FieldVector lo, boolean loInclusive, FieldVector hi, boolean hiInclusive) {
    if (!keysChecked) {
      keysChecked = true;
      FieldVector min = lookup.getVector("min");
      FieldVector max = lookup.getVector("max");
      int n = pageCount();
      if (keys.hasLongKeys() && min.getNullCount() == 0 && max.getNullCount() == 0) {
        long[] mins = new long[n];
        long[] maxs = new long[n];
        boolean sorted = true;
        for (int p = 0; p < n && sorted; p++) {
          mins[p] = keys.longKey(min, p);
          maxs[p] = keys.longKey(max, p);
          sorted = mins[p] <= maxs[p] && (p == 0 || (mins[p - 1] <= mins[p] && maxs[p - 1] <= maxs[p]));
        }
        if (sorted) {
          minKeys = mins;
          maxKeys = maxs;
        }
      }
    }
    if (minKeys == null) {
      return null;
    }
    int n = minKeys.length;
    int first = 0;
    if (lo != null) {
      // The first page whose max reaches lo.
      long l = keys.longKey(lo, 0);
      int a = 0;
      int b = n;
      while (a < b) {
        int mid = (a + b) >>> 1;
        if (maxKeys[mid] < l || (!loInclusive && maxKeys[mid] == l)) {
          a = mid + 1;
        } else {
          b = mid;
        }
      }
      first = a;
    }
    int end = n;
    if (hi != null) {
      // The first page whose min passes hi.
      long h = keys.longKey(hi, 0);
      int a = first;
      int b = n;
      while (a < b) {
        int mid = (a + b) >>> 1;
        if (minKeys[mid] < h || (hiInclusive && minKeys[mid] == h)) {
          a = mid + 1;
        } else {
          b = mid;
        }
      }
      end = a;
    }
    List<Integer> out = new ArrayList<>();
    for (int p = first; p < end; p++) {
      out.add(p);
    }
    return out;
  }

  /** Pages whose value range can hold a match, in order. */
  private List<Integer> candidatePages(ScalarQuery q, List<FieldVector> lit) {
    List<Integer> fast = switch (q.kind()) {
      case EQUALS -> sortedCandidates(lit.get(0), true, lit.get(0), true);
      case LESS -> sortedCandidates(null, false, lit.get(0), false);
      case LESS_OR_EQUAL -> sortedCandidates(null, false, lit.get(0), true);
      case GREATER -> sortedCandidates(lit.get(0), false, null, false);
      case GREATER_OR_EQUAL -> sortedCandidates(lit.get(0), true, null, false);
      case BETWEEN -> sortedCandidates(lit.get(0), true, lit.get(1), true);
      default -> null;
    };
    if (fast != null) {
      return fast;
    }
    FieldVector min = lookup.getVector("min");
    FieldVector max = lookup.getVector("max");
    UInt4Vector nullCounts = (UInt4Vector) lookup.getVector("null_count");
    List<Integer> out = new ArrayList<>();
    for (int p = 0; p < pageCount(); p++) {
      boolean hit;
      if (q.kind() == ScalarQuery.Kind.IS_NULL) {
        hit = nullCounts.get(p) > 0;
      } else if (max.isNull(p)) {
        hit = false; // nothing but nulls
      } else {
        hit = false;
        switch (q.kind()) {
          case EQUALS: hit = overlaps(min, max, p, lit.get(0), true, lit.get(0), true); break;
          case LESS: hit = overlaps(min, max, p, null, false, lit.get(0), false); break;
          case LESS_OR_EQUAL: hit = overlaps(min, max, p, null, false, lit.get(0), true); break;
          case GREATER: hit = overlaps(min, max, p, lit.get(0), false, null, false); break;
          case GREATER_OR_EQUAL: hit = overlaps(min, max, p, lit.get(0), true, null, false); break;
          case BETWEEN: hit = overlaps(min, max, p, lit.get(0), true, lit.get(1), true); break;
          case IN: {
            // The smallest value not below the page's min (any value when the page starts with
            // nulls) must not pass its max.
            FieldVector sorted = lit.get(0);
            int at = min.isNull(p) ? 0 : firstNotBelow(sorted, min, p);
            hit = at < sorted.getValueCount() && keys.compareValues(max, p, sorted, at) >= 0;
            break;
          }
          default:
            throw new IllegalStateException("Unknown query kind " + q.kind());
        }
      }
      if (hit) {
        out.add(p);
      }
    }
    return out;
  }

  // Page p's non-null values lie in [min, max]; a null min (the page starts with nulls) is no bound.
  private boolean overlaps(FieldVector min, FieldVector max, int p, FieldVector lo, boolean loInclusive,
      FieldVector hi, boolean hiInclusive) {
    if (lo != null) {
      int c = keys.compareValues(max, p, lo, 0);
      if (c < 0 || (c == 0 && !loInclusive)) {
        return false;
      }
    }
    if (hi != null && !min.isNull(p)) {
      int c = keys.compareValues(min, p, hi, 0);
      if (c > 0 || (c == 0 && !hiInclusive)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Reads the given pages (runs of adjacent uncached pages in one read) and hands every row over;
   * with {@code cache}, pages come from and go to the page cache.
   */
  private void readPages(List<Integer> pages, boolean cache, RowConsumer consumer) throws IOException {
    readPageRoots(pages, cache, b -> consume(b, consumer));
  }

  // As readPages, handing over whole pages.
  private void readPageRoots(List<Integer> pages, boolean cache, PageConsumer consumer) throws IOException {
    if (pages.isEmpty()) {
      return;
    }
    if (pageData == null) {
      pageData = LanceFileReader.open(store.open(directory + "/" + PageSink.PAGE_DATA), allocator);
    }
    long total = pageData.numRows();
    int k = 0;
    while (k < pages.size()) {
      int first = pages.get(k);
      VectorSchemaRoot hit = cache ? pageCache.get(first) : null;
      if (hit != null) {
        k++;
        consumer.accept(hit);
        continue;
      }
      int last = first;
      while (k + 1 < pages.size() && pages.get(k + 1) == last + 1 && !(cache && pageCache.containsKey(last + 1))) {
        last = pages.get(++k);
      }
      k++;
      long start = (long) first * batchSize;
      long end = Math.min(total, (long) (last + 1) * batchSize);
      if (start >= end) {
        continue;
      }
      try (ArrowReader in = pageData.read(ReadOptions.builder().rows(start, end).batchSize(batchSize).build())) {
        int page = first;
        while (in.loadNextBatch()) {
          VectorSchemaRoot b = in.getVectorSchemaRoot();
          if (cache) {
            // Batches start at page boundaries and hold one page each.
            VectorSchemaRoot kept = keep(b);
            put(page, kept);
            consumer.accept(kept);
          } else {
            consumer.accept(b);
          }
          page++;
        }
      }
    }
  }

  private static void consume(VectorSchemaRoot b, RowConsumer consumer) throws IOException {
    ValueVector values = b.getVector("values");
    UInt8Vector ids = (UInt8Vector) b.getVector("ids");
    for (int i = 0; i < b.getRowCount(); i++) {
      consumer.accept(values, ids, i);
    }
  }

  // A root owning the batch's buffers (the reader's root moves on to the next batch).
  private VectorSchemaRoot keep(VectorSchemaRoot b) {
    List<FieldVector> vectors = new ArrayList<>();
    for (FieldVector v : b.getFieldVectors()) {
      TransferPair tp = v.getTransferPair(allocator);
      tp.transfer();
      vectors.add((FieldVector) tp.getTo());
    }
    List<Field> fields = new ArrayList<>();
    vectors.forEach(v -> fields.add(v.getField()));
    return new VectorSchemaRoot(fields, vectors, b.getRowCount());
  }

  private void put(int page, VectorSchemaRoot root) {
    VectorSchemaRoot old = pageCache.put(page, root);
    if (old != null) {
      old.close();
    }
    while (pageCache.size() > CACHED_PAGES) {
      var eldest = pageCache.entrySet().iterator().next();
      eldest.getValue().close();
      pageCache.remove(eldest.getKey());
    }
  }

  /**
   * Writes a copy of this index under {@code _indices/{newUuid}} with every row address passed
   * through {@code map}: deleted rows are left out, and the rows are sorted again (moved rows can
   * change the order of equal values). For compaction, which gives the copy a new uuid.
   */
  public synchronized void remap(RowAddressMap map, String newUuid, BTreeIndexBuilder.Options options)
      throws IOException {
    remap(map, store, newUuid, options);
  }

  /** As {@link #remap(RowAddressMap, String, BTreeIndexBuilder.Options)}, writing the copy to {@code target}. */
  public synchronized void remap(RowAddressMap map, ObjectStore target, String newUuid,
      BTreeIndexBuilder.Options options) throws IOException {
    checkOpen();
    List<Integer> all = new ArrayList<>();
    for (int p = 0; p < pageCount(); p++) {
      all.add(p);
    }
    try (BTreeIndexBuilder b = new BTreeIndexBuilder(valueField, options.batchSize(batchSize), allocator)) {
      // Rows go in one by one so the builder's budget still bounds memory.
      readPages(all, false, (values, ids, i) -> {
        long to = map.map(ids.get(i));
        if (to != RowAddressMap.DELETED) {
          b.addOne(values, i, to);
        }
      });
      b.finish(target, directory(newUuid));
    }
  }

  /** Adds a holder, who closes it too; false if it is already freed. */
  public synchronized boolean retain() {
    if (refs <= 0) {
      return false;
    }
    refs++;
    return true;
  }

  private void checkOpen() {
    if (refs <= 0) {
      throw new IllegalStateException("BTree index " + directory + " is closed");
    }
  }

  /** Drops this holder; the last one frees the lookup, the page cache and the data file. */
  @Override
  public synchronized void close() {
    if (refs <= 0 || --refs > 0) {
      return;
    }
    lookup.close();
    pageCache.values().forEach(VectorSchemaRoot::close);
    pageCache.clear();
    if (pageData != null) {
      try {
        pageData.close();
      } catch (IOException e) {
        // Only a read handle: nothing was written, nothing is lost.
      }
      pageData = null;
    }
  }
}
