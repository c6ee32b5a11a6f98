package dev.javelin.core;

import dev.javelin.common.LeasedCache;
import dev.javelin.core.VectorSearchPlan;
import dev.javelin.core.expr.BoundExpression;
import dev.javelin.core.expr.Expression;
import dev.javelin.core.internal.SessionState;
import dev.javelin.core.internal.index.AddressTranslator;
import dev.javelin.core.internal.index.IndexCoverage;
import dev.javelin.core.internal.index.RowIdIndex;
import dev.javelin.core.internal.index.VectorColumn;
import dev.javelin.core.internal.scan.DatasetReader;
import dev.javelin.core.internal.scan.FilteredReader;
import dev.javelin.core.internal.scan.Take;
import dev.javelin.core.util.LongRadixSort;
import dev.javelin.format.schema.LanceField;
import dev.javelin.index.DistanceType;
import dev.javelin.index.IndexType;
import dev.javelin.index.exceptions.UnsupportedIndexKindException;
import dev.javelin.index.exceptions.VectorIndexException;
import dev.javelin.index.internal.ivf.FlatSearch;
import dev.javelin.index.internal.ivf.IvfIndex;
import dev.javelin.index.internal.ivf.Neighbors;
import dev.javelin.io.RequestCounters;
import dev.javelin.io.RequestCounts;
import dev.javelin.table.Fragment;
import dev.javelin.table.IndexMetadata;
import dev.javelin.table.deletion.Deletes;
import dev.javelin.table.exceptions.TableErrors;
import dev.javelin.table.rowids.RowIdSequence;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongPredicate;
import java.util.function.LongUnaryOperator;
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
 * <p>With an IVF index on the column (IVF_PQ, IVF_FLAT, IVF_SQ or IVF_HNSW_SQ, and a matching
 * distance type)
 * the fragments it covers
 * are searched through the index and the fragments it does not cover by brute force, and the two
 * are merged. The index search probes the {@link #nprobes} partitions nearest the query, then, as
 * Lance does, further partitions one at a time (nearest first, up to {@link #maximumNprobes})
 * while fewer than k rows have been found: so a selective prefilter still gets k rows when k rows
 * pass it. Without a usable index the search is exact; a vector index of a kind Javelin cannot
 * read yet (lance-core's IVF_RQ, IVF_HNSW_PQ, 4-bit IVF_PQ) does not make a query
 * fail: the fragments it covers are searched exactly, and {@link #explain} says so.
 *
 * <p><b>Distances.</b> As in lance-core 7.0.0: when the index covers every fragment and no
 * {@link #refineFactor} is set, the rows come ranked by, and with the {@code _distance} of, their
 * approximate (PQ or SQ code) distances, not the distances of their true vectors (IVF_FLAT's are
 * true distances, and are never re-ranked). A refine factor (1 or
 * more) re-ranks {@code k * factor} candidates by their true vectors and returns true distances;
 * when some fragments are searched by brute force, the index's k candidates are re-ranked by their
 * true vectors (as with factor 1) so that both kinds of rows compare by true distance. The
 * {@code _distance} field's metadata says which it is ({@link #DISTANCE_KIND_KEY}).
 *
 * <p>Deleted rows are never returned. A {@link #filter} is applied before the search
 * ({@link #prefilter}{@code (true)}: the k nearest of the rows that pass) or, by default as in
 * Lance, after it (the rows of the k nearest that pass; possibly fewer than k). On a dataset with
 * stable row ids the index holds stable row ids, and {@code _rowid} and {@link #neighbors} give
 * them.
 */
public final class VectorQuery {
  /** The distance column of the results (float32, ascending). */
  public static final String DISTANCE = "_distance";
  /**
   * The {@code _distance} field's metadata key: {@code approximate} when the distances are IVF_PQ
   * or IVF_SQ code distances (an index that covers every fragment, no refine factor), else {@code exact}.
   */
  public static final String DISTANCE_KIND_KEY = "javelin:distance";
  /** The {@code _distance} field's metadata key naming the distance type ({@code l2}, ...). */
  public static final String DISTANCE_TYPE_KEY = "javelin:distance_type";
  /** Javelin's default number of IVF partitions to probe at least. */
  public static final int DEFAULT_NPROBES = 20;
  private final Dataset ds;
  private final String column;
  private final float[] query;
  private final BufferAllocator allocator;
  private int k = 10;
  private int nprobes = DEFAULT_NPROBES;
  private int maximumNprobes = Integer.MAX_VALUE;
  private int refineFactor;
  private int ef;
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

  /**
   * IVF partitions always searched, nearest the query first (default 20): Lance's
   * {@code minimum_nprobes}. As Lance does, partitions whose centroids are nearly as near as the
   * nearest one (within 7 times its distance for k up to 10, 81 times beyond, 0.6 for k = 1) are
   * searched too, up to {@link #maximumNprobes}; further partitions only while fewer than k rows
   * have been found. {@code nprobes(n).maximumNprobes(n)} searches exactly n partitions, as Lance's
   * {@code nprobes(n)}.
   */
  public VectorQuery nprobes(int nprobes) {
    if (nprobes < 1) {
      throw new IllegalArgumentException("nprobes must be at least 1, got " + nprobes);
    }
    this.nprobes = nprobes;
    return this;
  }

  /**
   * The most IVF partitions to search (default: all), Lance's {@code maximum_nprobes}: when the
   * first {@link #nprobes} partitions hold fewer than k rows that may be returned (a selective
   * prefilter, deleted rows), further partitions are searched one at a time, nearest first, until
   * k are found or this many have been searched. Below {@code nprobes} it also lowers
   * {@code nprobes} (as Lance caps the minimum at the maximum); equal to it, exactly that many
   * partitions are searched (Lance's {@code nprobes}).
   */
  public VectorQuery maximumNprobes(int maximumNprobes) {
    if (maximumNprobes < 1) {
      throw new IllegalArgumentException("maximumNprobes must be at least 1, got " + maximumNprobes);
    }
    this.maximumNprobes = maximumNprobes;
    return this;
  }

  /**
   * Re-rank {@code k * factor} index candidates by their true vectors and return their true
   * distances (0, the default: no re-ranking, index distances). As in Lance, 1 re-ranks the k
   * candidates themselves: the same rows as without, in true order, with true distances.
   */
  public VectorQuery refineFactor(int factor) {
    if (factor < 0) {
      throw new IllegalArgumentException("refineFactor must not be negative, got " + factor);
    }
    this.refineFactor = factor;
    return this;
  }

  /**
   * The width of the graph search in each probed partition of an HNSW index (Lance's {@code ef};
   * default: 1.5 times the rows asked of the index, {@code k} times the refine factor). Wider
   * finds more of the true nearest rows, slower. Ignored by indices without a graph; with one, a
   * search whose {@code ef} is below the rows asked of the index fails with a
   * {@link VectorIndexException}, as in lance-core.
   *
   * @throws IllegalArgumentException if {@code ef} is not positive
   */
  public VectorQuery ef(int ef) {
    if (ef < 1) {
      throw new IllegalArgumentException("ef must be at least 1, got " + ef);
    }
    this.ef = ef;
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

  /** Adds a {@code _rowid} column (uint64: the stable row id, or the row address without stable row ids). */
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
   * then {@code _distance}, nearest first. {@code _distance}'s metadata holds
   * {@link #DISTANCE_KIND_KEY} ({@code approximate} or {@code exact}) and
   * {@link #DISTANCE_TYPE_KEY}. The caller closes the result.
   */
  public VectorSchemaRoot execute() {
    Result r = run();
    List<String> cols = columns;
    if (cols == null) {
      cols = new ArrayList<>();
      for (LanceField f : ds.schema().fields()) {
        cols.add(f.name());
      }
    }
    Neighbors n = r.rows();
    VectorSchemaRoot rows;
    try {
      rows = Take.takeRows(ds, n.rowIds(), ds.fields(cols), allocator);
    } catch (IOException e) {
      throw new UncheckedIOException("Vector search failed: " + ds.location(), e);
    }
    List<FieldVector> vectors = new ArrayList<>(rows.getFieldVectors());
    try {
      if (withRowId) {
        long[] ids = rowIds(n.rowIds());
        UInt8Vector idv = new UInt8Vector(new Field("_rowid", FieldType.notNullable(new ArrowType.Int(64, false)),
            null), allocator);
        vectors.add(idv);
        idv.allocateNew(n.size());
        for (int i = 0; i < n.size(); i++) {
          idv.set(i, ids[i]);
        }
        idv.setValueCount(n.size());
      }
      Map<String, String> meta = new LinkedHashMap<>();
      meta.put(DISTANCE_KIND_KEY, r.approximate() ? "approximate" : "exact");
      meta.put(DISTANCE_TYPE_KEY, r.distanceType().lanceName());
      Float4Vector dist = new Float4Vector(new Field(DISTANCE,
          new FieldType(true, new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE), null, meta), null),
          allocator);
      vectors.add(dist);
      dist.allocateNew(n.size());
      for (int i = 0; i < n.size(); i++) {
        dist.set(i, n.distances()[i]);
      }
      dist.setValueCount(n.size());
    } catch (RuntimeException e) {
      vectors.forEach(FieldVector::close);
      throw e;
    }
    return new VectorSchemaRoot(vectors);
  }

  /**
   * Runs the query and returns only the row ids and distances, nearest first: row ids as
   * {@link Dataset#takeRows} takes them (stable row ids on a dataset with stable row ids, else row
   * addresses).
   */
  public Neighbors neighbors() {
    Neighbors n = run().rows();
    return new Neighbors(rowIds(n.rowIds()), n.distances());
  }

  /**
   * Runs the query as {@link #execute()} would, dropping the rows, and says what it did: the plan,
   * rows returned, time, and the requests sent to the dataset's store ({@link QueryAnalysis}).
   */
  public QueryAnalysis<VectorSearchPlan> analyze() {
    VectorSearchPlan plan = explain();
    RequestCounters counters = ds.store().requests();
    RequestCounts before = counters.snapshot();
    long start = System.nanoTime();
    long rows;
    try (VectorSchemaRoot r = execute()) {
      rows = r.getRowCount();
    }
    return new QueryAnalysis<>(plan, rows, 1, Duration.ofNanos(System.nanoTime() - start),
        counters.snapshot().minus(before));
  }

  /**
   * How the query would search (no search runs): which index answers for which fragments, which
   * fragments are searched exactly and why, the partitions probed, and whether distances are
   * approximate.
   *
   * @throws VectorIndexException if the column is not a vector column or the query's dimension
   *     differs from it
   */
  public VectorSearchPlan explain() {
    Plan plan = plan();
    List<Long> indexed = new ArrayList<>();
    List<Long> exact = new ArrayList<>();
    plan.indexed().forEach(f -> indexed.add(f.id()));
    plan.flat().forEach(f -> exact.add(f.id()));
    VectorSearchPlan.IndexUse use = null;
    if (plan.index() != null) {
      int partitions = plan.index().numPartitions();
      int max = Math.min(maximumNprobes, partitions);
      use = new VectorSearchPlan.IndexUse(plan.entry().name(), plan.index().kind(), partitions,
          Math.min(nprobes, max), max);
    }
    return new VectorSearchPlan(column, k, plan.distanceType().lanceName(), filter, prefilter, use, indexed, exact,
        refineFactor, plan.index() != null && plan.index().approximate() && refineFactor < 1 && plan.flat().isEmpty(),
        plan.notes());
  }

  /**
   * What a search reads: the usable index (null: none) and its entry, the fragments it answers for
   * and those searched exactly, the distance type, and notes saying why an index is not used.
   */
  private record Plan(IndexMetadata entry, IvfIndex index, IndexCoverage coverage,
      List<Fragment> indexed, List<Fragment> flat, DistanceType distanceType, List<String> notes) {}

  /** The rows found (addresses), whether some distances are the index's, and the distance type. */
  private record Result(Neighbors rows, boolean approximate, DistanceType distanceType) {}

  private Plan plan() {
    LanceField field = VectorColumn.field(ds, column);
    int dim = VectorColumn.dimension(field.toArrow(), ds.location());
    if (query.length != dim) {
      throw new VectorIndexException("Query vector has " + query.length + " dimensions but column '" + column
          + "' has " + dim + ": " + ds.location());
    }
    List<String> notes = new ArrayList<>();
    IndexMetadata entry = null;
    IvfIndex index = null;
    if (!useIndex) {
      notes.add("indices turned off: every fragment searched exactly");
    } else {
      List<IndexMetadata> candidates = vectorIndices(field);
      if (candidates.isEmpty()) {
        notes.add("no vector index on column '" + column + "': every fragment searched exactly");
      }
      for (IndexMetadata i : candidates) {
        String fragments = VectorSearchPlan.ranges(coveredFragments(i));
        Object opened = open(i);
        if (opened instanceof UnsupportedIndexKindException u) {
          notes.add("index '" + i.name() + "' (" + u.kind() + ") is not readable by Javelin yet; fragments "
              + fragments + " searched exactly");
        } else if (distanceType != null && distanceType != ((IvfIndex) opened).distanceType()) {
          notes.add("index '" + i.name() + "' ranks by " + ((IvfIndex) opened).distanceType().lanceName()
              + ", the query by " + distanceType.lanceName() + ": fragments " + fragments + " searched exactly");
        } else if (index == null) {
          entry = i;
          index = (IvfIndex) opened;
        }
      }
    }
    DistanceType dt = index != null ? index.distanceType() : distanceType != null ? distanceType : DistanceType.L2;
    // The index answers for its fragments and, through reordered rewrites' row maps, for the
    // destinations of rewrites whose sources it covered entirely. With stable row ids the index
    // holds row ids, which need no translation: it answers for the rows it holds that still live
    // in fragments of its bitmap.
    IndexCoverage coverage = null;
    if (index != null) {
      RoaringBitmap bitmap = entry.fragmentBitmap();
      coverage = IndexCoverage.derive(bitmap, ds.hasStableRowIds() ? List.of() : IndexCoverage.transitions(ds));
    }
    List<Fragment> flat = new ArrayList<>();
    List<Fragment> indexed = new ArrayList<>();
    for (Fragment f : ds.manifest().fragments()) {
      (coverage != null && coverage.covers(f.id()) ? indexed : flat).add(f);
    }
    return new Plan(entry, index, coverage, indexed, flat, dt, notes);
  }

  // Ids of the live fragments an index's bitmap names.
  private List<Long> coveredFragments(IndexMetadata i) {
    RoaringBitmap bitmap = i.fragmentBitmap();
    List<Long> out = new ArrayList<>();
    for (Fragment f : ds.manifest().fragments()) {
      if (f.id() <= 0xFFFFFFFFL && bitmap.contains((int) f.id())) {
        out.add(f.id());
      }
    }
    return out;
  }

  // Searches; the result's row ids are row addresses (also with stable row ids).
  private Result run() {
    Plan plan = plan();
    LanceField field = VectorColumn.field(ds, column);
    BoundExpression bound = filter == null ? null : Expression.parse(filter).bindFilter(ds.schema());
    IvfIndex index = plan.index();
    DistanceType dt = plan.distanceType();
    int candidates = refineFactor >= 1 ? k * refineFactor : k;
    // As lance-core 7.0.0: the index's candidates are re-ranked by their true vectors with a refine
    // factor, and also when some fragments are searched by brute force, so that the two kinds of
    // rows are compared by the same (true) distance. Otherwise their code distances are returned.
    // An index of the vectors themselves (IVF_FLAT) gives true distances: nothing to re-rank.
    boolean rerank = index != null && index.approximate() && (refineFactor >= 1 || !plan.flat().isEmpty());
    // As lance-core, a graph search narrower than the rows it is asked for is refused.
    if (index != null && index.searchesGraphs() && ef > 0 && ef < candidates) {
      String asked = refineFactor >= 1 ? "k times the refine factor (" + k + " * " + refineFactor + " = "
          + candidates + ")" : "k (" + k + ")";
      throw new VectorIndexException("ef must be greater than or equal to " + asked + " for an " + index.kind()
          + " index, got ef " + ef);
    }
    try {
      BoundExpression pre = prefilter ? bound : null;
      Neighbors merged = new Neighbors(new long[0], new float[0]);
      boolean approximate = false;
      if (!plan.indexed().isEmpty()) {
        Roaring64NavigableMap keep = pre == null ? null : passing(plan.indexed(), pre);
        if (keep != null && keep.getLongCardinality() <= k) {
          // No more rows pass than are wanted: all of them, by their true vectors (as Lance,
          // which returns every passing row then, without searching).
          merged = exactly(keep.toArray(), field, dt, k);
        } else {
          LongPredicate accept = keep != null ? keep::contains : new LiveRows(ds, plan.indexed(), allocator);
          Neighbors found = ds.hasStableRowIds() ? searchByRowIds(index, plan.indexed(), candidates, accept)
              : searchIndex(index, plan.coverage(), candidates, accept);
          merged = rerank ? refine(found, field, dt, k) : Neighbors.merge(k, found);
          approximate = !rerank && merged.size() > 0 && index.approximate();
        }
      }
      if (!plan.flat().isEmpty()) {
        FlatSearch exact = new FlatSearch(query, dt, k);
        VectorColumn.scan(ds, plan.flat(), field, pre, allocator, (v, a, n) -> exact.add(v, 0, n, a));
        merged = Neighbors.merge(k, merged, exact.result());
      }
      // As in Lance, the postfilter sees the k nearest (after re-ranking), so fewer may remain.
      if (bound != null && !prefilter) {
        merged = postfilter(merged, bound);
      }
      return new Result(merged, approximate, dt);
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
  private Neighbors searchIndex(IvfIndex index, IndexCoverage coverage, int candidates, LongPredicate accept)
      throws IOException {
    AddressTranslator translator = new AddressTranslator(SessionState.of(ds).rowMaps(), ds.store(),
        coverage.through());
    if (translator.isIdentity()) {
      return index.search(query, candidates, probes(), accept);
    }
    Set<Long> sources = new HashSet<>();
    coverage.through().forEach(t -> t.sources().forEach(s -> sources.add(s.id())));
    LongPredicate tentative = id -> sources.contains(id >>> 32) || accept.test(id);
    int want = candidates;
    while (true) {
      Neighbors got = index.search(query, want, probes(), tentative);
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

  /**
   * With stable row ids: the index holds stable row ids. A row id it holds is returned when its
   * live row is in a fragment the index covers (a row updated since lives in a newer fragment,
   * searched by brute force) and {@code accept} keeps that row's address; the result is in
   * addresses.
   */
  private Neighbors searchByRowIds(IvfIndex index, List<Fragment> indexed, int candidates, LongPredicate accept) {
    RowIdIndex ids = ds.rowIdIndex();
    List<Fragment> all = ds.manifest().fragments();
    Set<Long> covered = new HashSet<>();
    indexed.forEach(f -> covered.add(f.id()));
    LongUnaryOperator address = id -> {
      long at;
      try {
        at = ids.lookup(id);
      } catch (IOException e) {
        throw new UncheckedIOException("Vector search failed: " + ds.location(), e);
      }
      if (at < 0) {
        return -1;
      }
      long frag = all.get((int) (at >>> 32)).id();
      return covered.contains(frag) ? frag << 32 | (at & 0xFFFFFFFFL) : -1;
    };
    Neighbors got = index.search(query, candidates, probes(), id -> {
      long a = address.applyAsLong(id);
      return a >= 0 && accept.test(a);
    });
    long[] out = new long[got.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = address.applyAsLong(got.rowIds()[i]);
    }
    // Re-sorted: ties are broken by the addresses.
    return Neighbors.merge(candidates, new Neighbors(out, got.distances()));
  }

  // The partitions to probe, as Lance: pruning and the late search go by k, not k * refine.
  private IvfIndex.Probes probes() {
    return new IvfIndex.Probes(nprobes, maximumNprobes, k, ef);
  }

  // Row ids for the caller: stable row ids on a dataset with them, else the addresses themselves.
  private long[] rowIds(long[] addresses) {
    if (!ds.hasStableRowIds() || addresses.length == 0) {
      return addresses;
    }
    Map<Long, Fragment> byId = new HashMap<>();
    for (Fragment f : ds.manifest().fragments()) {
      byId.put(f.id(), f);
    }
    Map<Long, RowIdSequence> sequences = new HashMap<>();
    long[] out = new long[addresses.length];
    for (int i = 0; i < out.length; i++) {
      Fragment f = byId.get(addresses[i] >>> 32);
      RowIdSequence seq = sequences.computeIfAbsent(f.id(), id -> f.rowIdSequence(ds.store())
          .orElseThrow(() -> TableErrors.corrupt(ds.location(), "Fragment " + id
              + " has no row id sequence in a dataset with stable row ids")));
      out[i] = seq.get(addresses[i] & 0xFFFFFFFFL);
    }
    return out;
  }

  // Every vector index on exactly this field, in manifest order, straight from the manifest
  // (Dataset.indices() would describe every index, coverage included, on each query).
  private List<IndexMetadata> vectorIndices(LanceField field) {
    List<IndexMetadata> out = new ArrayList<>();
    for (IndexMetadata i : ds.manifest().indices()) {
      if (i.fields().size() == 1 && i.fields().get(0) == field.id()
          && IndexType.fromDetailsTypeUrl(i.details().typeUrl())
              == IndexType.VECTOR) {
        out.add(i);
      }
    }
    return out;
  }

  // The open index, or the UnsupportedIndexKindException saying why Javelin cannot read it: kept
  // in the session's cache by dataset and uuid.
  private Object open(IndexMetadata entry) {
    String uuid = entry.uuid();
    SessionState session = SessionState.of(ds);
    try (LeasedCache.Lease<Object> opened = session.vectorIndices().lease(ds.location() + "#" + uuid, k -> {
      try {
        return IvfIndex.open(ds.manifest().basePaths().indexStore(ds.store(), entry), uuid, allocator,
            session.pools());
      } catch (UnsupportedIndexKindException e) {
        return e;
      }
    })) {
      return opened.value();
    } catch (IOException e) {
      throw new UncheckedIOException("Opening vector index '" + entry.name() + "' failed: " + ds.location(), e);
    }
  }

  /** The addresses of the rows of some fragments that the prefilter keeps (deleted rows left out). */
  private Roaring64NavigableMap passing(List<Fragment> fragments, BoundExpression pre) throws IOException {
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
    return keep;
  }

  // The k nearest of some live rows (addresses), by their true vectors.
  private Neighbors exactly(long[] addresses, LanceField field, DistanceType dt, int k) throws IOException {
    return refine(new Neighbors(addresses, new float[addresses.length]), field, dt, k);
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
      sorted.sort(Comparator.comparingLong(Fragment::id));
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

  private Neighbors postfilter(Neighbors candidates, BoundExpression bound) throws IOException {
    if (candidates.size() == 0) {
      return candidates;
    }
    try (VectorSchemaRoot rows = Take.takeRows(ds, candidates.rowIds(), ds.fields(bound.columns()), allocator)) {
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

  /**
   * Forgets the default session's cached indices (tests and benchmarks that rewrite files under
   * the same uuid).
   */
  static void clearCache() {
    SessionState.of(Session.defaultSession()).vectorIndices().invalidateAll();
  }
}
