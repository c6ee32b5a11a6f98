package dev.javelin.core;

import dev.javelin.core.expr.BoundExpression;
import dev.javelin.core.expr.Expression;
import dev.javelin.core.util.LongRadixSort;
import dev.javelin.format.schema.LanceField;
import dev.javelin.index.ivf.DistanceType;
import dev.javelin.index.ivf.FlatSearch;
import dev.javelin.index.ivf.IvfPqIndex;
import dev.javelin.index.ivf.Neighbors;
import dev.javelin.index.ivf.VectorIndexException;
import dev.javelin.table.Deletes;
import dev.javelin.table.Fragment;
import dev.javelin.table.IndexUuids;
import dev.javelin.table.proto.TableProtos;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongPredicate;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.roaringbitmap.RoaringBitmap;
import org.roaringbitmap.longlong.Roaring64NavigableMap;

/**
 * A nearest-neighbour query over a vector column ({@code fixed_size_list<float32, d>}), as
 * Lance's {@code nearest}: start with {@link Dataset#nearest}, set options, then {@link #execute}.
 *
 * <p>With an IVF_PQ index on the column (and a matching distance type) the fragments it covers
 * are searched through the index ({@code nprobes} partitions, PQ-approximate distances) and the
 * fragments it does not cover by brute force, and the two are merged. Without one, the search is
 * exact. Deleted rows are never returned. A {@link #refineFactor} re-ranks {@code k * factor}
 * candidates with their true vectors. A {@link #filter} is applied before the search
 * ({@link #prefilter}{@code (true)}: the k nearest of the rows that pass) or, by default as in
 * Lance, after it (the rows of the k nearest that pass; possibly fewer than k).
 */
public final class VectorQuery {
  /** The distance column of the results (float32, ascending). */
  public static final String DISTANCE = "_distance";
  /** Lance's default number of IVF partitions to probe. */
  public static final int DEFAULT_NPROBES = 20;
  private static final int CACHED_INDICES = 8;
  private static final Map<String, IvfPqIndex> CACHE = new LinkedHashMap<>(16, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, IvfPqIndex> eldest) {
      return size() > CACHED_INDICES;
    }
  };

  private final Dataset ds;
  private final String column;
  private final float[] query;
  private final BufferAllocator allocator;
  private int k = 10;
  private int nprobes = DEFAULT_NPROBES;
  private int refineFactor;
  private String filter;
  private boolean prefilter;
  private DistanceType distanceType;
  private List<String> columns;
  private boolean withRowId;
  private boolean useIndex = true;

  VectorQuery(Dataset ds, String column, float[] query, BufferAllocator allocator) {
    this.ds = ds;
    this.column = column;
    this.query = query.clone();
    this.allocator = allocator;
  }

  /** How many neighbours to return (default 10). */
  public VectorQuery k(int k) {
    if (k < 1) {
      throw new IllegalArgumentException("k must be at least 1, got " + k);
    }
    this.k = k;
    return this;
  }

  /** IVF partitions to search (default 20, Lance's minimum). */
  public VectorQuery nprobes(int nprobes) {
    if (nprobes < 1) {
      throw new IllegalArgumentException("nprobes must be at least 1, got " + nprobes);
    }
    this.nprobes = nprobes;
    return this;
  }

  /** Re-rank {@code k * factor} index candidates by their true distances (0 or 1: none). */
  public VectorQuery refineFactor(int factor) {
    if (factor < 0) {
      throw new IllegalArgumentException("refineFactor must not be negative, got " + factor);
    }
    this.refineFactor = factor;
    return this;
  }

  /** A filter in the scan filter language (see {@link ScanBuilder#filter}). */
  public VectorQuery filter(String sql) {
    this.filter = sql;
    return this;
  }

  /** Whether the filter applies before the search (true) or to its results (false, the default). */
  public VectorQuery prefilter(boolean prefilter) {
    this.prefilter = prefilter;
    return this;
  }

  /**
   * The distance to rank by. Default: the index's, or L2 without one. A type other than the
   * index's makes the query exact (the index is not used).
   */
  public VectorQuery distanceType(DistanceType type) {
    this.distanceType = type;
    return this;
  }

  /** The columns of the result (default: all), before {@code _distance}. */
  public VectorQuery columns(List<String> names) {
    this.columns = names == null ? null : List.copyOf(names);
    return this;
  }

  /** Adds a {@code _rowid} column (uint64; the row address without stable row ids). */
  public VectorQuery withRowId(boolean on) {
    this.withRowId = on;
    return this;
  }

  /** Whether to use an index (default true); false gives the exact answer by brute force. */
  public VectorQuery useIndex(boolean on) {
    this.useIndex = on;
    return this;
  }

  /**
   * Runs the query and reads the result rows: the chosen columns, then {@code _rowid} if asked,
   * then {@code _distance}, nearest first. The caller closes the result.
   */
  public VectorSchemaRoot execute() {
    Neighbors n = neighbors();
    List<String> cols = columns;
    if (cols == null) {
      cols = new ArrayList<>();
      for (LanceField f : ds.schema().fields()) {
        cols.add(f.name());
      }
    }
    VectorSchemaRoot rows = ds.takeRows(n.rowIds(), cols);
    List<FieldVector> vectors = new ArrayList<>(rows.getFieldVectors());
    try {
      if (withRowId) {
        UInt8Vector ids = new UInt8Vector(new Field("_rowid", FieldType.notNullable(new ArrowType.Int(64, false)),
            null), allocator);
        ids.allocateNew(n.size());
        for (int i = 0; i < n.size(); i++) {
          ids.set(i, n.rowIds()[i]);
        }
        ids.setValueCount(n.size());
        vectors.add(ids);
      }
      Float4Vector dist = new Float4Vector(new Field(DISTANCE,
          FieldType.nullable(new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)), null), allocator);
      dist.allocateNew(n.size());
      for (int i = 0; i < n.size(); i++) {
        dist.set(i, n.distances()[i]);
      }
      dist.setValueCount(n.size());
      vectors.add(dist);
    } catch (RuntimeException e) {
      vectors.forEach(FieldVector::close);
      throw e;
    }
    return new VectorSchemaRoot(vectors);
  }

  /** Runs the query and returns only the row ids (row addresses) and distances, nearest first. */
  public Neighbors neighbors() {
    VectorColumn.checkRowAddresses(ds, "Vector search");
    LanceField field = VectorColumn.field(ds, column);
    int dim = VectorColumn.dimension(field.toArrow(), ds.location());
    if (query.length != dim) {
      throw new VectorIndexException("Query vector has " + query.length + " dimensions but column '" + column
          + "' has " + dim + ": " + ds.location());
    }
    BoundExpression bound = filter == null ? null : Expression.parse(filter).bindFilter(ds.schema());
    try {
      TableProtos.IndexMetadata info = useIndex ? findIndex(field) : null;
      IvfPqIndex index = info == null ? null : open(info);
      if (index != null && distanceType != null && distanceType != index.distanceType()) {
        index = null;
      }
      DistanceType dt = index != null ? index.distanceType() : distanceType != null ? distanceType : DistanceType.L2;
      int candidates = refineFactor > 1 ? k * refineFactor : k;
      // The index answers for its fragments and, through reordered rewrites' row maps, for
      // the destinations of rewrites whose sources it covered entirely.
      IndexCoverage coverage = index == null ? null
          : IndexCoverage.derive(DatasetIndexes.fragmentBitmap(info, ds.location()), IndexCoverage.transitions(ds));
      List<Fragment> flat = new ArrayList<>();
      List<Fragment> indexed = new ArrayList<>();
      for (Fragment f : ds.manifest().fragments()) {
        (coverage != null && coverage.covers(f.id()) ? indexed : flat).add(f);
      }
      BoundExpression pre = prefilter ? bound : null;
      Neighbors fromIndex = new Neighbors(new long[0], new float[0]);
      if (!indexed.isEmpty()) {
        fromIndex = searchIndex(index, coverage, candidates, accepted(indexed, pre));
      }
      // The index's list is already its sorted nearest: merged only with rows searched by brute force.
      Neighbors merged = fromIndex;
      if (!flat.isEmpty()) {
        FlatSearch exact = new FlatSearch(query, dt, candidates);
        VectorColumn.scan(ds, flat, field, pre, allocator, (v, a, n) -> exact.add(v, 0, n, a));
        merged = Neighbors.merge(candidates, fromIndex, exact.result());
      }
      if (refineFactor > 1 && index != null) {
        merged = refine(merged, field, dt, k);
      }
      // As in Lance, the postfilter sees the k nearest (after re-ranking), so fewer may remain.
      merged = Neighbors.merge(k, merged);
      if (bound != null && !prefilter) {
        merged = postfilter(merged, bound);
      }
      return merged;
    } catch (IOException e) {
      throw new UncheckedIOException("Vector search failed: " + ds.location(), e);
    }
  }

  /**
   * The index's {@code candidates} nearest rows that {@code accept} (current addresses) keeps.
   * Rows it recorded in the sources of reordered rewrites are searched as if kept, then
   * translated to their current addresses and tested; when too few survive (rows deleted at or
   * after the rewrite, or rejected by a prefilter), the search asks for more, doubling.
   */
  private Neighbors searchIndex(IvfPqIndex index, IndexCoverage coverage, int candidates, LongPredicate accept)
      throws IOException {
    AddressTranslator translator = new AddressTranslator(ds.store(), coverage.through());
    if (translator.isIdentity()) {
      return index.search(query, candidates, nprobes, accept);
    }
    Set<Long> sources = new HashSet<>();
    coverage.through().forEach(t -> t.sources().forEach(s -> sources.add(s.id())));
    LongPredicate tentative = id -> sources.contains(id >>> 32) || accept.test(id);
    int want = candidates;
    while (true) {
      Neighbors got = index.search(query, want, nprobes, tentative);
      long[] moved = translator.translate(got.rowIds());
      int n = 0;
      long[] ids = new long[moved.length];
      float[] dist = new float[moved.length];
      for (int i = 0; i < moved.length; i++) {
        if (moved[i] != AddressTranslator.DROPPED && accept.test(moved[i])) {
          ids[n] = moved[i];
          dist[n] = got.distances()[i];
          n++;
        }
      }
      if (n >= candidates || got.size() < want || want >= index.numRows()) {
        // Re-sorted: ties are broken by the current addresses.
        return Neighbors.merge(candidates,
            new Neighbors(Arrays.copyOf(ids, n), Arrays.copyOf(dist, n)));
      }
      want = (int) Math.min(index.numRows(), 2L * want);
    }
  }

  // The first vector index on exactly this field, straight from the manifest (Dataset.indices()
  // would describe every index, coverage included, on each query).
  private TableProtos.IndexMetadata findIndex(LanceField field) {
    for (TableProtos.IndexMetadata i : ds.manifest().indices()) {
      if (i.getFieldsCount() == 1 && i.getFields(0) == field.id()
          && dev.javelin.index.IndexType.fromDetailsTypeUrl(i.getIndexDetails().getTypeUrl())
              == dev.javelin.index.IndexType.VECTOR) {
        return i;
      }
    }
    return null;
  }

  private IvfPqIndex open(TableProtos.IndexMetadata entry) throws IOException {
    String uuid = IndexUuids.toText(entry.getUuid().getUuid());
    String key = ds.location() + "#" + uuid;
    synchronized (CACHE) {
      IvfPqIndex cached = CACHE.get(key);
      if (cached != null) {
        return cached;
      }
    }
    IvfPqIndex index = IvfPqIndex.open(ds.manifest().basePaths().indexStore(ds.store(), entry), uuid, allocator);
    synchronized (CACHE) {
      CACHE.put(key, index);
    }
    return index;
  }

  /**
   * Which index rows may be returned: rows of the indexed fragments still present and not
   * deleted, and with a prefilter only those it keeps.
   */
  private LongPredicate accepted(List<Fragment> fragments, BoundExpression pre)
      throws IOException {
    if (pre != null) {
      // Only the filter's columns are read; the scan already leaves deleted rows out.
      Roaring64NavigableMap keep = new Roaring64NavigableMap();
      List<LanceField> read = ds.fields(pre.columns());
      ArrowReader inner = new DatasetReader(ds.store(), ds.location(), fragments, read, 8192, false, true, allocator);
      try (ArrowReader in = new FilteredReader(inner, pre, new int[] {read.size()}, 0, -1, allocator)) {
        while (in.loadNextBatch()) {
          UInt8Vector addr = (UInt8Vector) in.getVectorSchemaRoot().getVector(0);
          for (int i = 0; i < in.getVectorSchemaRoot().getRowCount(); i++) {
            keep.addLong(addr.get(i));
          }
        }
      }
      return keep::contains;
    }
    return new LiveRows(ds, fragments, allocator);
  }

  /**
   * Rows of some fragments that are not deleted: fragment ids sorted, with their deletion
   * vectors (null: none). The search asks about every row that would enter its top k, so the
   * test must be cheap: no boxing, and the previous fragment is remembered (rows come partition
   * by partition, mostly from few fragments).
   */
  private static final class LiveRows implements LongPredicate {
    private final long[] ids;
    private final RoaringBitmap[] deleted;
    // A hint, racy by design when several threads search: any value is checked before use.
    private int last;

    LiveRows(Dataset ds, List<Fragment> fragments, BufferAllocator allocator) throws IOException {
      List<Fragment> sorted = new ArrayList<>(fragments);
      sorted.sort(java.util.Comparator.comparingLong(Fragment::id));
      ids = new long[sorted.size()];
      deleted = new RoaringBitmap[sorted.size()];
      for (int i = 0; i < ids.length; i++) {
        Fragment f = sorted.get(i);
        ids[i] = f.id();
        if (f.deletionFile().isPresent()) {
          RoaringBitmap d = Deletes.deletedRows(ds.store(), f, allocator);
          deleted[i] = d.isEmpty() ? null : d;
        }
      }
    }

    @Override
    public boolean test(long id) {
      long frag = id >>> 32;
      int at = last;
      if (at >= ids.length || ids[at] != frag) {
        at = Arrays.binarySearch(ids, frag);
        if (at < 0) {
          return false;
        }
        last = at;
      }
      RoaringBitmap d = deleted[at];
      return d == null || !d.contains((int) (id & 0xFFFFFFFFL));
    }
  }

  /**
   * The {@code k} nearest candidates by their true vectors. Candidates are live rows (the
   * search only returns accepted ones), so their vectors are read fragment by fragment in
   * address order straight from the fragments' files, with no reordering copy: the result does
   * not depend on the order (ties are broken by row id).
   */
  private Neighbors refine(Neighbors candidates, LanceField field, DistanceType dt, int k) throws IOException {
    int dim = query.length;
    FlatSearch exact = new FlatSearch(query, dt, k);
    long[] ids = candidates.rowIds().clone();
    // A radix sort: a comparison sort of 5,000 addresses took about a quarter of the re-ranking.
    LongRadixSort.sort(ids);
    Map<Long, Fragment> fragments = new HashMap<>();
    for (Fragment f : ds.manifest().fragments()) {
      fragments.put(f.id(), f);
    }
    // Vectors are copied a few at a time into one small array, each block's distances computed
    // while it is in cache; all of them at once (k * refine vectors, 2.5 MB at 5,000 x 128) would
    // also be a humongous array per query, which G1 collects for every few queries.
    float[] values = new float[Math.max(REFINE_BLOCK_FLOATS, dim)];
    long[] blockIds = new long[values.length / dim];
    for (int from = 0; from < ids.length;) {
      long frag = ids[from] >>> 32;
      int to = from;
      while (to < ids.length && ids[to] >>> 32 == frag) {
        to++;
      }
      Fragment fragment = fragments.get(frag);
      if (fragment == null) {
        throw new IllegalStateException("Vector search candidate " + ids[from] + " names no fragment of version "
            + ds.version() + ": " + ds.location());
      }
      long[] rows = new long[to - from];
      for (int i = from; i < to; i++) {
        rows[i - from] = ids[i] & 0xFFFFFFFFL;
      }
      // Plain float pages are copied straight into the array; other layouts (nulls, 2.0 files,
      // small vectors in mini-blocks, overlays) go through the general take.
      int first = from;
      boolean direct = Take.forEachFloatVector(ds, fragment, field, rows, values, (s, e) -> {
        System.arraycopy(ids, first + s, blockIds, 0, e - s);
        exact.add(values, 0, e - s, blockIds);
      }, allocator);
      if (!direct) {
        refineByTake(fragment, field, rows, ids, from, exact);
      }
      from = to;
    }
    return exact.result();
  }

  /** Floats {@link #refine} copies at a time: a few vectors, to stay in the first-level cache. */
  private static final int REFINE_BLOCK_FLOATS = 4 * 1024;

  // Offers the vectors of a fragment's rows (ids[first..] their addresses) through a general take.
  private void refineByTake(Fragment fragment, LanceField field, long[] rows, long[] ids, int first,
      FlatSearch exact) throws IOException {
    int dim = query.length;
    float[] row = new float[dim];
    List<VectorSchemaRoot> opened = new ArrayList<>();
    try {
      FixedSizeListVector v = (FixedSizeListVector) Take.takeFromFragment(ds, fragment, List.of(field), rows, opened,
          allocator)[0];
      // Vector by vector through one float view of the taken values (no copy of them all).
      FloatBuffer values = ((Float4Vector) v.getDataVector()).getDataBuffer()
          .nioBuffer(0, rows.length * dim * 4).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer();
      for (int i = 0; i < rows.length; i++) {
        if (!v.isNull(i)) {
          values.get(i * dim, row, 0, dim);
          exact.add(row, 0, ids[first + i]);
        }
      }
    } finally {
      opened.forEach(VectorSchemaRoot::close);
    }
  }

  private Neighbors postfilter(Neighbors candidates, BoundExpression bound) {
    if (candidates.size() == 0) {
      return candidates;
    }
    try (VectorSchemaRoot rows = ds.takeRows(candidates.rowIds(), bound.columns())) {
      int[] keep = bound.select(rows);
      long[] ids = new long[keep.length];
      float[] dist = new float[keep.length];
      for (int i = 0; i < keep.length; i++) {
        ids[i] = candidates.rowIds()[keep[i]];
        dist[i] = candidates.distances()[keep[i]];
      }
      return new Neighbors(ids, dist);
    }
  }

  /** Forgets cached indices (tests and benchmarks that rewrite files under the same uuid). */
  static void clearCache() {
    synchronized (CACHE) {
      CACHE.clear();
    }
  }
}
