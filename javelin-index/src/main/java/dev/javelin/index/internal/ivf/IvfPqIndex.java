package dev.javelin.index.internal.ivf;

import dev.javelin.common.ThreadPools;
import dev.javelin.index.DistanceType;
import dev.javelin.index.RowAddressMap;
import dev.javelin.index.exceptions.VectorIndexException;
import dev.javelin.index.internal.btree.BTreeIndex;
import dev.javelin.io.ObjectStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongPredicate;
import org.apache.arrow.memory.BufferAllocator;

/**
 * An open IVF_PQ index ({@code _indices/{uuid}/index.idx} and {@code auxiliary.idx}, Lance's v3
 * layout, from lance-core or Javelin). Opening loads the centroids, the codebook, and every row's
 * id and codes into Java arrays (m bytes and 8 bytes a row; codes regrouped in blocks of eight
 * rows for {@link AdcKernel}), so the index holds no Arrow memory
 * and needs no closing; it is safe to search from several threads. A large search also runs on
 * the CPU pool of the {@link ThreadPools} it was opened with.
 */
public final class IvfPqIndex {
  private final IvfPqModel model;
  private final long[] offsets;
  private final int[] lengths;
  private final long[] rowIds;
  // Codes in AdcKernel's blocks of eight rows, partition c's from blockOffsets[c].
  private final byte[] blocked;
  private final int[] blockOffsets;
  private final int maxLength;
  // L2 and cosine: per partition p, ||c||^2 + 2 <C_p, c> for every PQ centroid c of every
  // sub-vector (C_p: the centroid's sub-vector), or null when that would exceed TERMS_LIMIT.
  private final float[][][] partitionTerms;
  // Large searches run on this pool's CPU threads besides the caller's.
  private final ThreadPools pools;
  private static final long TERMS_LIMIT = 16L << 20;
  // Below this many rows to scan, a search stays on the caller's thread (forking costs more).
  private static final long PARALLEL_ROWS = 65_536;

  private IvfPqIndex(IvfPqFiles.Contents c, long termsLimit, ThreadPools pools) {
    this.pools = pools;
    this.model = c.model();
    this.offsets = c.offsets();
    this.lengths = c.lengths();
    this.rowIds = c.rowIds();
    int m = model.pq.m;
    int p = offsets.length;
    this.blockOffsets = new int[p];
    long size = 0;
    int longest = 0;
    for (int part = 0; part < p; part++) {
      blockOffsets[part] = (int) size;
      size += AdcKernel.blockedSize(lengths[part], m);
      longest = Math.max(longest, lengths[part]);
    }
    if (size > Integer.MAX_VALUE - 16) {
      throw new VectorIndexException("IVF_PQ index too large to search in memory: " + size + " bytes of codes");
    }
    this.blocked = new byte[(int) size];
    for (int part = 0; part < p; part++) {
      AdcKernel.blocked(c.codes(), (int) offsets[part] * m, lengths[part], m, blocked, blockOffsets[part]);
    }
    this.maxLength = longest;
    this.partitionTerms = model.residual() && (long) p * m * ProductQuantizer.CENTROIDS <= termsLimit
        ? partitionTerms(model) : null;
  }

  /**
   * A residual's table entry ||q - C_p - c||^2 (per sub-vector) is ||q - C_p||^2 - 2 <q, c>
   * + (||c||^2 + 2 <C_p, c>): the last part depends only on the partition and is computed here
   * once, the middle once per query, the first is the partition's centroid distance, known
   * before the scan, and added to every row's sum once. A partition's table is then one array
   * add instead of m * 256 sub-vector distances (as Faiss does with its precomputed tables).
   * Rounding differs from the direct form only in the last bits.
   */
  private static float[][][] partitionTerms(IvfPqModel model) {
    ProductQuantizer pq = model.pq;
    int w = ProductQuantizer.CENTROIDS;
    float[] norms = pq.norms();
    float[][] normsBySubVector = new float[pq.m][];
    for (int j = 0; j < pq.m; j++) {
      normsBySubVector[j] = Arrays.copyOfRange(norms, j * w, (j + 1) * w);
    }
    float[] scratch = new float[w];
    float[][][] terms = new float[model.numPartitions][pq.m][w];
    for (int p = 0; p < model.numPartitions; p++) {
      pq.dotTable(model.centroids, p * model.dim, 2f, terms[p], scratch);
      for (int j = 0; j < pq.m; j++) {
        VectorMath.addInto(terms[p][j], normsBySubVector[j], w);
      }
    }
    return terms;
  }

  /**
   * Opens the index with this uuid in the dataset at {@code store}, to search on the
   * {@link ThreadPools#shared() shared} pools.
   *
   * @throws VectorIndexException if the files are not an IVF_PQ index Javelin reads (8-bit,
   *     transposed, float32)
   */
  public static IvfPqIndex open(ObjectStore store, String uuid, BufferAllocator allocator) throws IOException {
    return open(store, uuid, allocator, ThreadPools.shared());
  }

  /** {@link #open(ObjectStore, String, BufferAllocator)}, large searches running on {@code pools}. */
  public static IvfPqIndex open(ObjectStore store, String uuid, BufferAllocator allocator, ThreadPools pools)
      throws IOException {
    return new IvfPqIndex(IvfPqFiles.read(store, BTreeIndex.directory(uuid), allocator), TERMS_LIMIT, pools);
  }

  /** {@link #open}, precomputing table terms only up to {@code termsLimit} floats (tests: 0 = never). */
  static IvfPqIndex open(ObjectStore store, String uuid, BufferAllocator allocator, long termsLimit)
      throws IOException {
    return new IvfPqIndex(IvfPqFiles.read(store, BTreeIndex.directory(uuid), allocator), termsLimit,
        ThreadPools.shared());
  }

  public int dimension() {
    return model.dim;
  }

  public int numPartitions() {
    return model.numPartitions;
  }

  public int numSubVectors() {
    return model.pq.m;
  }

  public DistanceType distanceType() {
    return model.distanceType;
  }

  /** Rows in the index. */
  public int numRows() {
    return rowIds.length;
  }

  /** Rows in each partition. */
  public int[] partitionSizes() {
    return lengths.clone();
  }

  /** Every row id in the index, partition by partition. */
  public long[] rowIds() {
    return rowIds.clone();
  }

  /**
   * The {@code k} rows nearest {@code query} among the {@code nprobes} partitions whose centroids
   * are nearest it, by PQ-approximate distance (squared L2 of the residual for L2; for cosine half
   * of it, which is {@code 1 - cos} for unit vectors; {@code 1 - a·b} for DOT).
   *
   * @param accept which row ids may be returned (null: all); rejected rows are skipped before they
   *     take a place in the top k, which is what a prefilter needs; a large search calls it from
   *     several threads at once
   * @throws VectorIndexException if the query's length is not the index's dimension
   */
  public Neighbors search(float[] query, int k, int nprobes, LongPredicate accept) {
    return search(query, k, nprobes, accept, PARALLEL_ROWS);
  }

  /**
   * Which partitions a search probes, as Lance's: the {@code minimum} nearest the query always
   * (more when, as Lance prunes early, further centroids are nearly as near: see
   * {@link #earlyPruning}), then, while fewer than {@code queryK} accepted rows have been found (a
   * selective prefilter, deleted rows, small partitions), further partitions one at a time in
   * order of centroid distance, up to {@code maximum} partitions. {@code minimum} is capped at
   * {@code maximum}, both at the number of partitions.
   *
   * @param queryK the query's k (before a refine factor multiplies the rows asked of the index),
   *     which Lance's pruning and late search go by
   */
  public record Probes(int minimum, int maximum, int queryK) {
    public Probes {
      if (minimum < 1 || maximum < 1 || queryK < 1) {
        throw new IllegalArgumentException("nprobes and k must be at least 1, got minimum " + minimum + ", maximum "
            + maximum + ", k " + queryK);
      }
    }
  }

  /** The {@code k} nearest accepted rows of the partitions {@code probes} chooses (see {@link Probes}). */
  public Neighbors search(float[] query, int k, Probes probes, LongPredicate accept) {
    return search(query, k, probes, accept, PARALLEL_ROWS);
  }

  /** {@link #search}, on several threads once the first partitions hold {@code parallelRows} rows. */
  Neighbors search(float[] query, int k, int nprobes, LongPredicate accept, long parallelRows) {
    return search(query, k, new Probes(nprobes, nprobes, Math.max(1, k)), accept, parallelRows);
  }

  Neighbors search(float[] query, int k, Probes probeRange, LongPredicate accept, long parallelRows) {
    int dim = model.dim;
    if (query.length != dim) {
      throw new VectorIndexException("Query has " + query.length + " dimensions but the index has " + dim);
    }
    float[] q = query.clone();
    if (model.distanceType == DistanceType.COSINE) {
      VectorMath.normalize(q, 1, dim);
    }
    int p = model.numPartitions;
    boolean dot = model.distanceType == DistanceType.DOT;
    int maxProbes = Math.min(probeRange.maximum(), p);
    int probes = Math.min(probeRange.minimum(), maxProbes);
    // Nearest centroids first, as many as may be searched. For L2 and cosine all P distances at
    // once from the transposed centroids (vectorised, equal bit for bit to one l2 per centroid).
    TopK nearest = new TopK(maxProbes);
    if (dot) {
      for (int c = 0; c < p; c++) {
        nearest.offer(-VectorMath.dot(q, 0, model.centroids, c * dim, dim), c);
      }
    } else {
      Scratch s = SCRATCH.get().ensureCentroids(p);
      VectorMath.l2sTransposed(q, 0, dim, model.centroidsT, 0, p, s.centroidDist, 0, s.centroidScratch);
      for (int c = 0; c < p; c++) {
        nearest.offer(s.centroidDist[c], c);
      }
    }
    Neighbors nearestPartitions = nearest.result();
    long[] ordered = nearestPartitions.rowIds();
    float[] orderedDist = nearestPartitions.distances();
    probes = Math.max(probes, Math.min(maxProbes, earlyPruning(orderedDist, dot, probeRange.queryK())));
    long[] probed = Arrays.copyOf(ordered, Math.min(probes, ordered.length));
    float[] probedDist = Arrays.copyOf(orderedDist, probed.length);
    NearestRows top = searchPartitions(q, probed, probedDist, k, accept, parallelRows);
    // Lance's late search: one more partition at a time, nearest first, until the query's k rows
    // are found. (A row is only skipped by the top's bound once k rows are kept, so fewer kept
    // than wanted (at most k) means fewer accepted rows were seen.)
    int wanted = Math.min(k, probeRange.queryK());
    for (int at = probed.length; at < ordered.length && top.size() < wanted; at++) {
      top.offerAll(scan(q, new long[] {ordered[at]}, new float[] {orderedDist[at]}, new AtomicInteger(), k,
          accept));
    }
    return neighbors(top);
  }

  /**
   * Lance's early pruning: besides the minimum, every partition whose centroid is within a factor
   * of the nearest centroid's distance (0.6 for k = 1, 7 up to k = 10, 81 beyond) is searched from
   * the start. Lance compares squared L2 (cosine: 1 - cos, here 2 - 2 cos, the same ratios; dot:
   * 1 - a·b, here -a·b).
   */
  static int earlyPruning(float[] sortedDistances, boolean dot, int k) {
    if (sortedDistances.length == 0) {
      return 0;
    }
    float factor = k <= 1 ? 0.6f : k <= 10 ? 7f : 81f;
    float shift = dot ? 1f : 0f;
    float threshold = (sortedDistances[0] + shift) * factor;
    int n = 0;
    while (n < sortedDistances.length && sortedDistances[n] + shift <= threshold) {
      n++;
    }
    return n;
  }

  // The k nearest accepted rows of the given partitions, on several threads when they are large.
  private NearestRows searchPartitions(float[] q, long[] probed, float[] probedDist, int k, LongPredicate accept,
      long parallelRows) {
    long rows = 0;
    for (long c : probed) {
      rows += lengths[(int) c];
    }
    // One helper per CPU thread beyond the caller's.
    int workers = Math.min(probed.length, pools.cpuThreads());
    if (workers < 2 || rows < parallelRows) {
      return scan(q, probed, probedDist, new AtomicInteger(), k, accept);
    }
    // Like Lance, a large search runs its partitions on several threads: each keeps its own k
    // nearest, and since (distance, position in the index) orders rows totally, the k nearest of
    // their union are exactly the k nearest of a single pass. The threads claim partitions one at
    // a time (nearest first) from a shared counter, so a helper the OS does not run soon costs
    // nothing: the caller takes the partitions it would have, and a helper task that has not
    // started by the time the caller is done is cancelled rather than waited for.
    // (A task's flag is set by whichever comes first: the task starting, or the caller giving
    // up on it; Future.cancel cannot tell a running task from a waiting one.)
    AtomicInteger next = new AtomicInteger();
    List<Future<NearestRows>> tasks = new ArrayList<>();
    List<AtomicBoolean> taken = new ArrayList<>();
    for (int w = 1; w < workers; w++) {
      AtomicBoolean flag = new AtomicBoolean();
      taken.add(flag);
      tasks.add(pools.cpu().submit(() -> flag.compareAndSet(false, true)
          ? scan(q, probed, probedDist, next, k, accept) : null));
    }
    NearestRows top = scan(q, probed, probedDist, next, k, accept);
    for (int w = 0; w < tasks.size(); w++) {
      if (taken.get(w).compareAndSet(false, true)) {
        continue;
      }
      try {
        top.offerAll(tasks.get(w).get());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new VectorIndexException("Vector search interrupted");
      } catch (ExecutionException e) {
        if (e.getCause() instanceof RuntimeException r) {
          throw r;
        }
        throw new IllegalStateException("Vector search failed", e.getCause());
      }
    }
    return top;
  }

  // The kept rows as row ids and distances, nearest first (ties by position in the index).
  private Neighbors neighbors(NearestRows top) {
    long[] keys = top.sorted();
    long[] ids = new long[keys.length];
    float[] dist = new float[keys.length];
    for (int i = 0; i < keys.length; i++) {
      ids[i] = rowIds[NearestRows.row(keys[i])];
      dist[i] = NearestRows.distance(keys[i]);
    }
    return new Neighbors(ids, dist);
  }

  // The k nearest accepted rows of the probed partitions this thread claims from next.
  private NearestRows scan(float[] q, long[] probed, float[] probedDist, AtomicInteger next, int k,
      LongPredicate accept) {
    int dim = model.dim;
    boolean dot = model.distanceType == DistanceType.DOT;
    int m = model.pq.m;
    NearestRows top = new NearestRows(k);
    Scratch s = SCRATCH.get().ensure(m, dim, maxLength);
    if (dot) {
      // Without residuals one table serves every partition.
      model.pq.distanceTable(q, s.tables, s.tableScratch);
    }
    float[][] queryTerms = null;
    if (partitionTerms != null) {
      queryTerms = s.queryTerms;
      model.pq.dotTable(q, 0, -2f, queryTerms, s.tableScratch[0]);
    }
    float[] residual = s.residual;
    float scale = model.distanceType == DistanceType.COSINE ? 0.5f : 1f;
    float shift = dot ? 1f : 0f;
    for (int at = next.getAndIncrement(); at < probed.length; at = next.getAndIncrement()) {
      int c = (int) probed[at];
      int n = lengths[c];
      if (n == 0) {
        continue;
      }
      // With residuals the table depends on the partition's centroid (as in Lance).
      float constant = 0f;
      if (queryTerms != null) {
        // Straight into the per-sub-vector arrays: a copy and an add, each from index 0 (vectorised).
        for (int j = 0; j < m; j++) {
          System.arraycopy(partitionTerms[c][j], 0, s.tables[j], 0, ProductQuantizer.CENTROIDS);
          VectorMath.addInto(s.tables[j], queryTerms[j], ProductQuantizer.CENTROIDS);
        }
        constant = probedDist[at];
      } else if (!dot) {
        for (int i = 0; i < dim; i++) {
          residual[i] = q[i] - model.centroids[c * dim + i];
        }
        model.pq.distanceTable(residual, s.tables, s.tableScratch);
      }
      AdcKernel.distances(blocked, blockOffsets[c], n, m, s.tables, s.sums);
      offerAll(s.sums, (int) offsets[c], n, constant, scale, shift, top, accept);
    }
    return top;
  }

  /**
   * Offers the partition's rows (from row {@code base} in rowIds) at {@code shift + scale *
   * (constant + sum)} to top. Kept apart from the sums' loop: most rows fail the first test, and
   * with the offers inlined the sums' loop ran slower.
   */
  private void offerAll(float[] sums, int base, int n, float constant, float scale, float shift,
      NearestRows top, LongPredicate accept) {
    float bound = top.bound();
    for (int i = 0; i < n; i++) {
      float d = shift + scale * (constant + sums[i]);
      if (d <= bound && (accept == null || accept.test(rowIds[base + i]))) {
        top.offer(d, base + i);
        bound = top.bound();
      }
    }
  }

  // Per-thread buffers of a search, so that the common path allocates nothing per partition.
  private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

  private static final class Scratch {
    final float[][] tableScratch = VectorMath.l2sScratch(ProductQuantizer.CENTROIDS);
    float[] residual = new float[0];
    float[] sums = new float[0];
    float[][] queryTerms = new float[0][];
    // The table as AdcKernel takes it, one array per sub-vector.
    float[][] tables = new float[0][];

    float[] centroidDist = new float[0];
    float[][] centroidScratch = VectorMath.l2sScratch(0);

    Scratch ensureCentroids(int p) {
      if (centroidDist.length < p) {
        centroidDist = new float[p];
        centroidScratch = VectorMath.l2sScratch(p);
      }
      return this;
    }

    Scratch ensure(int m, int dim, int rows) {
      int padded = (rows + AdcKernel.BLOCK - 1) / AdcKernel.BLOCK * AdcKernel.BLOCK;
      if (sums.length < padded) {
        sums = new float[padded];
      }
      if (tables.length < m) {
        queryTerms = new float[m][ProductQuantizer.CENTROIDS];
        tables = new float[m][ProductQuantizer.CENTROIDS];
      }
      if (residual.length < dim) {
        residual = new float[dim];
      }
      return this;
    }
  }

  /**
   * Writes a copy of the index {@code oldUuid} as {@code newUuid} with its row ids moved by
   * {@code map} (rows mapped to {@link RowAddressMap#DELETED} are dropped), as a compaction that
   * rewrote the indexed fragments needs. Centroids and codebook are kept.
   *
   * @return the sizes of the new index.idx and auxiliary.idx
   */
  public static long[] remap(ObjectStore store, String oldUuid, String newUuid, RowAddressMap map,
      BufferAllocator allocator) throws IOException {
    return remap(store, store, oldUuid, newUuid, map, allocator);
  }

  /** As {@link #remap(ObjectStore, String, String, RowAddressMap, BufferAllocator)}, reading from one store and writing to another. */
  public static long[] remap(ObjectStore from, ObjectStore store, String oldUuid, String newUuid, RowAddressMap map,
      BufferAllocator allocator) throws IOException {
    IvfPqFiles.Contents c = IvfPqFiles.read(from, BTreeIndex.directory(oldUuid), allocator);
    int m = c.model().pq.m;
    int p = c.offsets().length;
    long[] newOffsets = new long[p];
    int[] newLengths = new int[p];
    long[] ids = new long[c.rowIds().length];
    byte[] codes = new byte[c.codes().length];
    int out = 0;
    for (int part = 0; part < p; part++) {
      int n = c.lengths()[part];
      int base = (int) c.offsets()[part];
      int kept = 0;
      int[] keep = new int[n];
      for (int i = 0; i < n; i++) {
        long moved = map.map(c.rowIds()[base + i]);
        if (moved != RowAddressMap.DELETED) {
          ids[out + kept] = moved;
          keep[kept++] = i;
        }
      }
      for (int j = 0; j < m; j++) {
        for (int i = 0; i < kept; i++) {
          codes[out * m + j * kept + i] = c.codes()[base * m + j * n + keep[i]];
        }
      }
      newOffsets[part] = out;
      newLengths[part] = kept;
      out += kept;
    }
    return IvfPqFiles.write(store, BTreeIndex.directory(newUuid), c.model(), newOffsets, newLengths,
        Arrays.copyOf(ids, out), Arrays.copyOf(codes, out * m), allocator);
  }
}
