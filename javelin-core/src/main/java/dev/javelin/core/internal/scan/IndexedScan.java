package dev.javelin.core.internal.scan;

import dev.javelin.core.Dataset;
import dev.javelin.core.ScanPlan;
import dev.javelin.core.expr.Expression;
import dev.javelin.core.expr.FilterShape;
import dev.javelin.core.internal.SessionState;
import dev.javelin.core.internal.index.AddressTranslator;
import dev.javelin.core.internal.index.IndexCoverage;
import dev.javelin.format.schema.LanceField;
import dev.javelin.index.IndexType;
import dev.javelin.index.internal.btree.BTreeIndex;
import dev.javelin.index.internal.btree.ScalarQuery;
import dev.javelin.index.internal.labellist.LabelListIndex;
import dev.javelin.index.internal.ngram.NGramIndex;
import dev.javelin.index.internal.ngram.NGramTokens;
import dev.javelin.index.internal.scalar.ScalarIndex;
import dev.javelin.index.internal.scalar.ScalarSearch;
import dev.javelin.index.internal.scalar.ScalarValues;
import dev.javelin.table.DataFile;
import dev.javelin.table.FeatureFlags;
import dev.javelin.table.Fragment;
import dev.javelin.table.IndexMetadata;
import dev.javelin.table.deletion.Deletes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.roaringbitmap.RoaringBitmap;
import org.roaringbitmap.longlong.LongIterator;
import org.roaringbitmap.longlong.Roaring64NavigableMap;

/**
 * Plans a filtered scan over scalar indices (BTree, bitmap, zone map, bloom filter; label lists for
 * {@code array_has_any/all}, n-grams for {@code contains} and {@code LIKE}): the filter's AND/OR of
 * column-vs-literal parts that indices answer gives, for the fragments every used index
 * covers, a superset of the matching rows (exactly the matching rows of a BTree or bitmap, the
 * rows of every zone a zone map or bloom filter cannot rule out); only those (live) rows are read,
 * and the caller applies the whole filter to them again, so results equal a full scan. Other
 * fragments are read in full.
 */
public final class IndexedScan {
  private final ScanPlan plan;
  // Covered fragment id -> ascending physical offsets of live candidate rows.
  private final Map<Long, long[]> rows;

  private IndexedScan(ScanPlan plan, Map<Long, long[]> rows) {
    this.plan = plan;
    this.rows = rows;
  }

  public ScanPlan plan() {
    return plan;
  }

  public boolean usesIndex() {
    return plan.usesIndex();
  }

  /**
   * Reads {@code fields} (and row id/address columns) of the candidate and uncovered rows of
   * {@code only} (null: every fragment), in scan order.
   */
  public ArrowReader reader(Dataset ds, List<Fragment> only, List<LanceField> fields, boolean rowId, boolean rowAddr,
      int batchSize, BufferAllocator allocator) {
    return new IndexedScanReader(SessionState.of(ds).dataFiles(), ds.store(), ds.location(),
        only == null ? ds.manifest().fragments() : only, rows, fields, batchSize, rowId, rowAddr, allocator);
  }

  /** Plans (and runs the index searches of) a scan with {@code filter}, already bound successfully. */
  public static IndexedScan plan(Dataset ds, Expression filter, BufferAllocator allocator) {
    List<Long> all = new ArrayList<>();
    for (Fragment f : ds.manifest().fragments()) {
      all.add(f.id());
    }
    if (filter == null) {
      return none(null, all, null);
    }
    if ((ds.manifest().readerFeatureFlags() & FeatureFlags.STABLE_ROW_IDS) != 0) {
      return none(filter.sql(), all, "indices of datasets with stable row ids hold row ids, not addresses");
    }
    Map<String, IndexCoverage> coverage = new HashMap<>();
    Map<String, IndexMetadata> byColumn = scalarIndices(ds, coverage);
    if (filter.columns().stream().noneMatch(c -> byColumn.containsKey(c) || byColumn.containsKey(c + LIST_SLOT)
        || byColumn.containsKey(c + TEXT_SLOT))) {
      return none(filter.sql(), all, "no scalar index on a column of the filter");
    }
    Map<String, ColumnIndex> opened = new HashMap<>();
    try {
      Planner p = new Planner(ds, byColumn, coverage, opened, allocator);
      Q tree = p.convert(filter.shape());
      if (tree == null) {
        return none(filter.sql(), all, "no part of the filter is a predicate an index answers");
      }
      // Fragments every used index answers for, directly or through a reordered rewrite's row map.
      List<Long> indexed = new ArrayList<>();
      List<Long> scanned = new ArrayList<>();
      for (Fragment f : ds.manifest().fragments()) {
        boolean every = true;
        for (String col : p.used.keySet()) {
          every &= coverage.get(col).covers(f.id());
        }
        (every ? indexed : scanned).add(f.id());
      }
      if (indexed.isEmpty()) {
        return none(filter.sql(), all, "the indices cover none of the fragments");
      }
      Roaring64NavigableMap found = p.search(tree);
      Map<Long, long[]> rows = split(ds, found, indexed, allocator);
      long total = 0;
      long rowsSkipped = 0;
      double bytesSkipped = 0;
      for (Fragment f : ds.manifest().fragments()) {
        long[] r = rows.get(f.id());
        if (r == null) {
          continue;
        }
        total += r.length;
        long skipped = f.physicalRows() - r.length;
        rowsSkipped += skipped;
        if (f.physicalRows() > 0) {
          bytesSkipped += (double) dataBytes(f) * skipped / f.physicalRows();
        }
      }
      List<ScanPlan.IndexUse> uses = new ArrayList<>();
      for (var e : p.used.entrySet()) {
        IndexCoverage c = coverage.get(e.getKey());
        List<Long> translated = indexed.stream().filter(id -> !c.direct(id)).toList();
        long[] zones = p.zones.getOrDefault(e.getKey(), new long[2]);
        uses.add(new ScanPlan.IndexUse(byColumn.get(e.getKey()).name(), column(e.getKey()), List.copyOf(e.getValue()),
            translated, opened.get(e.getKey()).type(), zones[0], zones[1]));
      }
      return new IndexedScan(new ScanPlan(filter.sql(), List.copyOf(uses), List.copyOf(indexed),
          List.copyOf(scanned), total, null, rowsSkipped, Math.round(bytesSkipped)), rows);
    } catch (IOException e) {
      throw new UncheckedIOException("Searching the indices failed: " + ds.location(), e);
    } finally {
      opened.values().forEach(ColumnIndex::close);
    }
  }

  // The bytes of a fragment's data files (0 where the manifest does not record a size).
  private static long dataBytes(Fragment f) {
    long bytes = 0;
    for (DataFile d : f.files()) {
      bytes += Math.max(0, d.fileSizeBytes());
    }
    return bytes;
  }

  /** A plan that reads every fragment in full. */
  public static IndexedScan unindexed(Dataset ds, Expression filter, String note) {
    List<Long> all = new ArrayList<>();
    for (Fragment f : ds.manifest().fragments()) {
      all.add(f.id());
    }
    return none(filter == null ? null : filter.sql(), all, note);
  }

  private static IndexedScan none(String sql, List<Long> all, String note) {
    return new IndexedScan(new ScanPlan(sql, List.of(), List.of(), List.copyOf(all), 0, note), Map.of());
  }

  // The slot of a column's label list index, whose predicates (array_has_any ...) no other kind
  // answers; a column's comparisons use the slot named by the column alone.
  private static final String LIST_SLOT = "\u0000label_list";
  // The slot of a column's n-gram index (substring predicates).
  private static final String TEXT_SLOT = "\u0000ngram";

  // The column a slot is for.
  private static String column(String slot) {
    int cut = slot.indexOf('\u0000');
    return cut < 0 ? slot : slot.substring(0, cut);
  }

  // The slot of an index of `type` on a column named `column`.
  private static String slot(String column, IndexType type) {
    return type == IndexType.LABEL_LIST ? column + LIST_SLOT : type == IndexType.NGRAM ? column + TEXT_SLOT : column;
  }

  // Whether an index of `type` on a column of `arrow` answers predicates Javelin evaluates the way
  // the index was built: BTrees always; label lists over lists of values Javelin compares (floats
  // left out: their zeros and NaNs compare differently in lists); n-grams over strings; the other
  // kinds over types Javelin compares.
  private static boolean usable(IndexType type, org.apache.arrow.vector.types.pojo.Field arrow) {
    switch (type) {
      case BTREE:
        return true;
      case LABEL_LIST:
        return (arrow.getType() instanceof ArrowType.List || arrow.getType() instanceof ArrowType.LargeList)
            && arrow.getChildren().size() == 1 && ScalarValues.supports(arrow.getChildren().get(0).getType())
            && !(arrow.getChildren().get(0).getType() instanceof ArrowType.FloatingPoint);
      case NGRAM:
        return arrow.getType() instanceof ArrowType.Utf8 || arrow.getType() instanceof ArrowType.LargeUtf8;
      default:
        return type.isScalar() && ScalarValues.supports(arrow.getType());
    }
  }

  // Slot (a top-level column name, or one with the slot of a label list or n-gram index) -> the
  // index for it answering for the most live fragments (through transitions too); on a tie an
  // exact kind (BTree, bitmap) before a zone map or bloom filter, then the one answering for more
  // of them directly (an index rebuilt after a reorder needs no translation).
  private static Map<String, IndexMetadata> scalarIndices(Dataset ds, Map<String, IndexCoverage> coverage) {
    Map<String, IndexMetadata> out = new HashMap<>();
    Map<String, long[]> sizes = new HashMap<>();
    List<Fragment> live = ds.manifest().fragments();
    for (IndexMetadata m : ds.manifest().indices()) {
      IndexType type = IndexType.fromDetailsTypeUrl(m.details().typeUrl());
      if (m.fields().size() != 1) {
        continue;
      }
      for (LanceField f : ds.schema().fields()) {
        // An index over a type Javelin cannot compare is left to scans.
        if (f.id() == m.fields().get(0) && usable(type, f.toArrow())) {
          String slot = slot(f.name(), type);
          IndexCoverage c = IndexCoverage.of(ds, m);
          if (c.covered(live).isEmpty()) {
            continue; // answers for no live fragment: nothing to open
          }
          long[] size = {c.covered(live).size(), type.isExact() ? 1 : 0, -c.translated(live).size()};
          long[] best = sizes.get(slot);
          if (best == null || Arrays.compare(size, best) > 0) {
            out.put(slot, m);
            sizes.put(slot, size);
            coverage.put(slot, c);
          }
        }
      }
    }
    return out;
  }

  // Buckets the found addresses by covered fragment, leaving out deleted and out-of-range rows.
  private static Map<Long, long[]> split(Dataset ds, Roaring64NavigableMap found, List<Long> indexed,
      BufferAllocator allocator) throws IOException {
    Map<Long, Fragment> frags = new HashMap<>();
    for (Fragment f : ds.manifest().fragments()) {
      frags.put(f.id(), f);
    }
    Map<Long, long[]> out = new LinkedHashMap<>();
    Map<Long, Integer> counts = new HashMap<>();
    for (long id : indexed) {
      out.put(id, new long[16]);
      counts.put(id, 0);
    }
    LongIterator it = found.getLongIterator();
    long currentId = -1;
    long[] current = null;
    int n = 0;
    while (it.hasNext()) {
      long a = it.next();
      long id = a >>> 32;
      if (id != currentId) {
        if (current != null) {
          out.put(currentId, current);
          counts.put(currentId, n);
        }
        currentId = id;
        current = out.get(id);
        n = current == null ? 0 : counts.get(id);
      }
      if (current == null) {
        continue; // a fragment the scan does not take from the index
      }
      if (n == current.length) {
        current = Arrays.copyOf(current, current.length * 2);
      }
      current[n++] = a & 0xFFFFFFFFL;
    }
    if (current != null) {
      out.put(currentId, current);
      counts.put(currentId, n);
    }
    for (long id : indexed) {
      long[] r = out.get(id);
      int count = counts.get(id);
      Fragment f = frags.get(id);
      RoaringBitmap deleted = count == 0 ? new RoaringBitmap() : Deletes.deletedRows(ds.store(), f, allocator);
      int k = 0;
      for (int i = 0; i < count; i++) {
        if (r[i] < f.physicalRows() && !deleted.contains((int) r[i])) {
          r[k++] = r[i];
        }
      }
      out.put(id, Arrays.copyOf(r, k));
    }
    return out;
  }

  /** The index-answerable part of a filter. */
  private sealed interface Q {}

  private record Leaf(String column, ScalarQuery query) implements Q {}

  /** {@code array_has_any} ({@code all} false) or {@code array_has_all} of {@code labels}, by a label list index. */
  private record ListLeaf(String slot, boolean all, List<Object> labels) implements Q {}

  /** Values holding every one of {@code literals}, by an n-gram index. */
  private record TextLeaf(String slot, List<String> literals) implements Q {}

  /** The index of a slot, whatever its kind. */
  private interface ColumnIndex {
    IndexType type();

    void close();
  }

  /** An index answering comparisons (BTree, bitmap, zone map, bloom filter). */
  private interface CompareIndex extends ColumnIndex {
    /** The type of the values it holds. */
    ArrowType valueType();

    boolean answers(ScalarQuery q);

    ScalarSearch search(ScalarQuery q) throws IOException;
  }

  private record LabelListColumn(LabelListIndex index) implements ColumnIndex {
    @Override
    public IndexType type() {
      return IndexType.LABEL_LIST;
    }

    @Override
    public void close() {} // cached whole in the heap: nothing to free
  }

  private record NGramColumn(NGramIndex index) implements ColumnIndex {
    @Override
    public IndexType type() {
      return IndexType.NGRAM;
    }

    @Override
    public void close() {} // cached whole in the heap: nothing to free
  }

  private record BTreeColumn(BTreeIndex index) implements CompareIndex {
    @Override
    public IndexType type() {
      return IndexType.BTREE;
    }

    @Override
    public ArrowType valueType() {
      return index.valueField().getType();
    }

    @Override
    public boolean answers(ScalarQuery q) {
      return true;
    }

    @Override
    public ScalarSearch search(ScalarQuery q) throws IOException {
      return ScalarSearch.exact(index.search(q));
    }

    @Override
    public void close() {
      index.close();
    }
  }

  private record OtherColumn(ScalarIndex index) implements CompareIndex {
    @Override
    public IndexType type() {
      return index.type();
    }

    @Override
    public ArrowType valueType() {
      return index.valueType();
    }

    @Override
    public boolean answers(ScalarQuery q) {
      return index.answers(q);
    }

    @Override
    public ScalarSearch search(ScalarQuery q) {
      return index.search(q);
    }

    @Override
    public void close() {} // cached whole in the heap: nothing to free
  }

  private record All(List<Q> parts) implements Q {}

  private record Any(List<Q> parts) implements Q {}

  private static final class Planner {
    private final Dataset ds;
    private final Map<String, IndexMetadata> byColumn;
    private final Map<String, IndexCoverage> coverage;
    private final Map<String, AddressTranslator> translators = new HashMap<>();
    private final Map<String, ColumnIndex> opened;
    private final BufferAllocator allocator;
    // Column -> the predicates its index answers, in filter order.
    final Map<String, List<String>> used = new LinkedHashMap<>();
    // Column -> {zones checked, zones skipped}, summed over its predicates (zone kinds only).
    final Map<String, long[]> zones = new HashMap<>();

    Planner(Dataset ds, Map<String, IndexMetadata> byColumn, Map<String, IndexCoverage> coverage,
        Map<String, ColumnIndex> opened, BufferAllocator allocator) {
      this.ds = ds;
      this.byColumn = byColumn;
      this.coverage = coverage;
      this.opened = opened;
      this.allocator = allocator;
    }

    // Null when the index cannot narrow the rows: an AND keeps its answerable parts (a superset
    // of its rows), an OR needs all of them.
    Q convert(FilterShape s) throws IOException {
      if (s instanceof FilterShape.And a) {
        List<Q> parts = new ArrayList<>();
        for (FilterShape p : a.parts()) {
          Q q = convert(p);
          if (q != null) {
            parts.add(q);
          }
        }
        return parts.isEmpty() ? null : parts.size() == 1 ? parts.get(0) : new All(parts);
      }
      if (s instanceof FilterShape.Or o) {
        List<Q> parts = new ArrayList<>();
        for (FilterShape p : o.parts()) {
          Q q = convert(p);
          if (q == null) {
            return null;
          }
          parts.add(q);
        }
        return new Any(parts);
      }
      if (s instanceof FilterShape.Compare c && byColumn.containsKey(c.column())) {
        ArrowType columnType = ds.fields(List.of(c.column())).get(0).toArrow().getType();
        CompareIndex index = (CompareIndex) open(c.column(), columnType);
        if (!index.valueType().equals(columnType)) {
          return null;
        }
        ScalarQuery q = query(c.op(), c.values(), columnType);
        if (q != null && index.answers(q)) {
          used.computeIfAbsent(c.column(), k -> new ArrayList<>()).add(c.sql());
          return new Leaf(c.column(), q);
        }
      }
      if (s instanceof FilterShape.ArrayHas a && byColumn.containsKey(a.column() + LIST_SLOT)) {
        String slot = a.column() + LIST_SLOT;
        LanceField field = ds.fields(List.of(a.column())).get(0);
        ArrowType labelType = field.toArrow().getChildren().get(0).getType();
        LabelListIndex index = ((LabelListColumn) open(slot, field.toArrow().getType())).index();
        ScalarQuery q = index.labelType().equals(labelType) ? query(FilterShape.Op.IN, a.values(), labelType) : null;
        if (q != null) {
          used.computeIfAbsent(slot, k -> new ArrayList<>()).add(a.sql());
          return new ListLeaf(slot, a.all(), q.values());
        }
      }
      if (s instanceof FilterShape.Substrings t && byColumn.containsKey(t.column() + TEXT_SLOT)
          && NGramTokens.any(t.literals())) {
        String slot = t.column() + TEXT_SLOT;
        open(slot, null);
        used.computeIfAbsent(slot, k -> new ArrayList<>()).add(t.sql());
        return new TextLeaf(slot, t.literals());
      }
      return null;
    }

    private ColumnIndex open(String column, ArrowType columnType) throws IOException {
      ColumnIndex i = opened.get(column);
      if (i == null) {
        IndexMetadata m = byColumn.get(column);
        IndexType type = IndexType.fromDetailsTypeUrl(m.details().typeUrl());
        // Shared across queries: repeated queries reuse what the first one read.
        var cache = SessionState.of(ds).indices();
        var store = ds.manifest().basePaths().indexStore(ds.store(), m);
        if (type == IndexType.BTREE) {
          i = new BTreeColumn(cache.open(store, m.uuid()));
        } else if (type == IndexType.LABEL_LIST) {
          i = new LabelListColumn(cache.openLabelList(store, m.uuid()));
        } else if (type == IndexType.NGRAM) {
          i = new NGramColumn(cache.openNGram(store, m.uuid()));
        } else {
          i = new OtherColumn(cache.openScalar(store, m.uuid(), type, columnType));
        }
        opened.put(column, i);
      }
      return i;
    }

    private AddressTranslator translator(String slot) {
      return translators.computeIfAbsent(slot,
          c -> new AddressTranslator(SessionState.of(ds).rowMaps(), ds.store(), coverage.get(c).through()));
    }

    // Each leaf's rows are translated to current addresses before they meet another index's
    // rows: indices built before and after a reorder record the same row at different addresses.
    Roaring64NavigableMap search(Q q) throws IOException {
      if (q instanceof Leaf l) {
        AddressTranslator t = translator(l.column());
        ScalarSearch found = ((CompareIndex) opened.get(l.column())).search(l.query());
        if (found.zones() > 0) {
          long[] z = zones.computeIfAbsent(l.column(), k -> new long[2]);
          z[0] += found.zones();
          z[1] += found.zonesSkipped();
        }
        return t.translate(found.rows());
      }
      if (q instanceof ListLeaf l) {
        LabelListIndex index = ((LabelListColumn) opened.get(l.slot())).index();
        return translator(l.slot()).translate(l.all() ? index.hasAll(l.labels()) : index.hasAny(l.labels()));
      }
      if (q instanceof TextLeaf t) {
        return translator(t.slot()).translate(((NGramColumn) opened.get(t.slot())).index().candidates(t.literals()));
      }
      List<Q> parts = q instanceof All a ? a.parts() : ((Any) q).parts();
      Roaring64NavigableMap out = search(parts.get(0));
      for (int i = 1; i < parts.size(); i++) {
        Roaring64NavigableMap next = search(parts.get(i));
        if (q instanceof All) {
          out.and(next);
        } else {
          out.or(next);
        }
      }
      return out;
    }
  }

  /**
   * The index query whose rows include every row the predicate selects, or null when the
   * literals do not fit the column's type as the filter compares them (then the index is not used).
   */
  static ScalarQuery query(FilterShape.Op op, List<Object> values, ArrowType type) {
    List<Object> vs = new ArrayList<>();
    for (int i = 0; i < values.size(); i++) {
      Object v = convert(values.get(i), type, op, i);
      if (v == null) {
        return null;
      }
      vs.add(v);
    }
    boolean floating = type instanceof ArrowType.FloatingPoint;
    switch (op) {
      case EQ:
        // The filter finds -0.0 = 0.0; the index orders -0.0 below 0.0.
        return floating && (Double) vs.get(0) == 0.0 ? ScalarQuery.between(-0.0, 0.0) : ScalarQuery.equalTo(vs.get(0));
      case LT: return ScalarQuery.lessThan(vs.get(0));
      case LE: return ScalarQuery.lessOrEqual(vs.get(0));
      case GT: return ScalarQuery.greaterThan(vs.get(0));
      case GE: return ScalarQuery.greaterOrEqual(vs.get(0));
      case BETWEEN: return ScalarQuery.between(vs.get(0), vs.get(1));
      case IN: {
        if (floating && vs.stream().anyMatch(v -> (Double) v == 0.0)) {
          vs.add(-0.0);
          vs.add(0.0);
        }
        return ScalarQuery.in(vs);
      }
      case IS_NULL: return ScalarQuery.isNull();
      default: return null;
    }
  }

  // A literal as the index's query value, or null if the filter would compare it differently.
  private static Object convert(Object v, ArrowType type, FilterShape.Op op, int position) {
    if (type instanceof ArrowType.Int t) {
      if (!(v instanceof Long l)) {
        return null;
      }
      int w = t.getBitWidth();
      if (t.getIsSigned()) {
        long min = w == 64 ? Long.MIN_VALUE : -(1L << (w - 1));
        long max = w == 64 ? Long.MAX_VALUE : (1L << (w - 1)) - 1;
        return l >= min && l <= max ? l : null;
      }
      return w < 64 && l >= 0 && l < (1L << w) ? l : null;
    }
    if (type instanceof ArrowType.FloatingPoint t) {
      if (t.getPrecision() != FloatingPointPrecision.DOUBLE || !(v instanceof Number n)) {
        return null;
      }
      double d = n.doubleValue();
      if (d == 0.0) {
        // Zero bounds: -0.0 below, +0.0 above, so both zeros are inside the range.
        boolean lower = op == FilterShape.Op.GT || op == FilterShape.Op.GE
            || (op == FilterShape.Op.BETWEEN && position == 0);
        return lower ? -0.0 : 0.0;
      }
      return d;
    }
    if (type instanceof ArrowType.Utf8 || type instanceof ArrowType.LargeUtf8) {
      return v instanceof String ? v : null;
    }
    if (type instanceof ArrowType.Bool) {
      return v instanceof Boolean ? v : null;
    }
    if (type instanceof ArrowType.Date d && d.getUnit() == DateUnit.DAY) {
      return v instanceof LocalDate ? v : null;
    }
    return null;
  }
}
