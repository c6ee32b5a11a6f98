package dev.javelin.index.internal.ivf;

import dev.javelin.common.ThreadPools;
import dev.javelin.index.DistanceType;
import dev.javelin.index.RowAddressMap;
import dev.javelin.index.exceptions.UnsupportedIndexKindException;
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
 * An open IVF vector index of any kind Javelin reads ({@link #open}): the partitions and their
 * centroids, and the row ids, partition by partition, are handled here once; what a partition
 * stores per row (PQ codes, the vectors, SQ codes) and how a partition is searched (a scan, or an
 * HNSW graph) is the kind's ({@link IvfPqIndex}, {@link IvfFlatIndex}, {@link IvfSqIndex},
 * {@link IvfHnswSqIndex}). Opening loads everything into
 * Java arrays, so an index holds no Arrow memory and needs no closing; it is safe to search from
 * several threads, and a large search also runs on the CPU pool of the {@link ThreadPools} it was
 * opened with.
 */
public abstract class IvfIndex {
  // Below this many rows to scan, a search stays on the caller's thread (forking costs more).
  static final long PARALLEL_ROWS = 65_536;

  final int dim;
  final int numPartitions;
  final DistanceType distanceType;
  // Partition p's rows are rowIds[offsets[p] .. offsets[p] + lengths[p]).
  final long[] offsets;
  final int[] lengths;
  final long[] rowIds;
  final int maxLength;
  private final float[] centroids;
  // [dim][partitions], for the vectorised centroid distances.
  private final float[][] centroidsT;
  private final ThreadPools pools;

  IvfIndex(int dim, float[] centroids, DistanceType distanceType, long[] offsets, int[] lengths, long[] rowIds,
      ThreadPools pools) {
    this.dim = dim;
    this.numPartitions = centroids.length / dim;
    this.distanceType = distanceType;
    this.centroids = centroids;
    this.centroidsT = VectorMath.transpose(centroids, 0, numPartitions, dim);
    this.offsets = offsets;
    this.lengths = lengths;
    this.rowIds = rowIds;
    int longest = 0;
    for (int n : lengths) {
      longest = Math.max(longest, n);
    }
    this.maxLength = longest;
    this.pools = pools;
  }

  /**
   * Opens the index with this uuid in the dataset at {@code store}, of whichever kind its
   * index.idx names, to search on the {@link ThreadPools#shared() shared} pools.
   *
   * @throws UnsupportedIndexKindException if Javelin cannot read indices of that kind
   * @throws VectorIndexException if the files are not a valid index of their kind
   */
  public static IvfIndex open(ObjectStore store, String uuid, BufferAllocator allocator) throws IOException {
    return open(store, uuid, allocator, ThreadPools.shared());
  }

  /** {@link #open(ObjectStore, String, BufferAllocator)}, large searches running on {@code pools}. */
  public static IvfIndex open(ObjectStore store, String uuid, BufferAllocator allocator, ThreadPools pools)
      throws IOException {
    String dir = BTreeIndex.directory(uuid);
    IvfFiles.Header header = IvfFiles.readHeader(store, dir, allocator);
    return switch (header.kind()) {
      case IvfPqFiles.KIND -> IvfPqIndex.open(IvfPqFiles.read(store, dir, header, allocator), pools);
      case IvfFlatIndex.KIND -> IvfFlatIndex.open(store, dir, header, allocator, pools);
      case IvfSqIndex.KIND -> IvfSqIndex.open(store, dir, header, allocator, pools);
      case IvfHnswSqIndex.KIND -> IvfHnswSqIndex.open(store, dir, header, allocator, pools);
      default -> throw new UnsupportedIndexKindException(header.kind(), "Index " + dir + " is an "
          + header.kind() + " index, which Javelin cannot read yet");
    };
  }

  /**
   * Writes a copy of the index {@code oldUuid} (any kind {@link #open} reads) as {@code newUuid}
   * with its row ids moved by {@code map} (rows mapped to {@link RowAddressMap#DELETED} are
   * dropped), as a compaction that rewrote the indexed fragments needs. The trained parts are kept.
   *
   * @return the sizes of the new index.idx and auxiliary.idx
   */
  public static long[] remap(ObjectStore store, String oldUuid, String newUuid, RowAddressMap map,
      BufferAllocator allocator) throws IOException {
    return remap(store, store, oldUuid, newUuid, map, allocator);
  }

  /** {@link #remap(ObjectStore, String, String, RowAddressMap, BufferAllocator)}, reading from one store and writing to another. */
  public static long[] remap(ObjectStore from, ObjectStore store, String oldUuid, String newUuid, RowAddressMap map,
      BufferAllocator allocator) throws IOException {
    IvfBuilder b = IvfBuilder.moving(from, oldUuid, map::map, allocator);
    return b.write(store, BTreeIndex.directory(newUuid), allocator);
  }

  /** The kind as Lance names it ({@code IVF_PQ}, {@code IVF_FLAT}, {@code IVF_SQ}). */
  public abstract String kind();

  /**
   * Whether the distances a search returns are approximations (from codes) rather than the true
   * distances of the stored vectors.
   */
  public abstract boolean approximate();

  /** Whether a partition is searched through a graph (HNSW), whose width {@link Probes#ef} sets. */
  public boolean searchesGraphs() {
    return false;
  }

  public int dimension() {
    return dim;
  }

  public int numPartitions() {
    return numPartitions;
  }

  public DistanceType distanceType() {
    return distanceType;
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
   * Which partitions a search probes, as Lance's: the {@code minimum} nearest the query always
   * (more when, as Lance prunes early, further centroids are nearly as near: see
   * {@link #earlyPruning}), then, while fewer than {@code queryK} accepted rows have been found (a
   * selective prefilter, deleted rows, small partitions), further partitions one at a time in
   * order of centroid distance, up to {@code maximum} partitions. {@code minimum} is capped at
   * {@code maximum}, both at the number of partitions.
   *
   * @param queryK the query's k (before a refine factor multiplies the rows asked of the index),
   *     which Lance's pruning and late search go by
   * @param ef the width of an HNSW partition's graph search (Lance's {@code ef}; 0: Lance's
   *     default, 1.5 times the rows asked of the index)
   */
  public record Probes(int minimum, int maximum, int queryK, int ef) {
    public Probes {
      if (minimum < 1 || maximum < 1 || queryK < 1) {
        throw new IllegalArgumentException("nprobes and k must be at least 1, got minimum " + minimum + ", maximum "
            + maximum + ", k " + queryK);
      }
      if (ef < 0) {
        throw new IllegalArgumentException("ef must not be negative, got " + ef);
      }
    }

    /** Probes without a graph search width (an HNSW partition then searches {@code 1.5 k} wide, as Lance). */
    public Probes(int minimum, int maximum, int queryK) {
      this(minimum, maximum, queryK, 0);
    }
  }

  /**
   * The {@code k} rows nearest {@code query} among the {@code nprobes} partitions whose centroids
   * are nearest it (see {@link #search(float[], int, Probes, LongPredicate)}).
   */
  public Neighbors search(float[] query, int k, int nprobes, LongPredicate accept) {
    return search(query, k, nprobes, accept, PARALLEL_ROWS);
  }

  /**
   * The {@code k} nearest accepted rows of the partitions {@code probes} chooses (see
   * {@link Probes}), by the kind's distance: squared L2 for L2; for cosine {@code 1 - cos} (PQ:
   * half the squared L2 of the normalised residual, which is that for unit vectors);
   * {@code 1 - a·b} for DOT.
   *
   * @param accept which row ids may be returned (null: all); rejected rows are skipped before they
   *     take a place in the top k, which is what a prefilter needs; a large search calls it from
   *     several threads at once
   * @throws VectorIndexException if the query's length is not the index's dimension
   */
  public Neighbors search(float[] query, int k, Probes probes, LongPredicate accept) {
    return search(query, k, probes, accept, PARALLEL_ROWS);
  }

  /** {@link #search}, on several threads once the first partitions hold {@code parallelRows} rows. */
  Neighbors search(float[] query, int k, int nprobes, LongPredicate accept, long parallelRows) {
    return search(query, k, new Probes(nprobes, nprobes, Math.max(1, k)), accept, parallelRows);
  }

  Neighbors search(float[] query, int k, Probes probeRange, LongPredicate accept, long parallelRows) {
    if (query.length != dim) {
      throw new VectorIndexException("Query has " + query.length + " dimensions but the index has " + dim);
    }
    float[] q = query.clone();
    if (distanceType == DistanceType.COSINE) {
      VectorMath.normalize(q, 1, dim);
    }
    int p = numPartitions;
    boolean dot = distanceType == DistanceType.DOT;
    int maxProbes = Math.min(probeRange.maximum(), p);
    int probes = Math.min(probeRange.minimum(), maxProbes);
    // Nearest centroids first, as many as may be searched. For L2 and cosine all P distances at
    // once from the transposed centroids (vectorised, equal bit for bit to one l2 per centroid).
    TopK nearest = new TopK(maxProbes);
    if (dot) {
      for (int c = 0; c < p; c++) {
        nearest.offer(-VectorMath.dot(q, 0, centroids, c * dim, dim), c);
      }
    } else {
      CentroidScratch s = CENTROID_SCRATCH.get().ensure(p);
      VectorMath.l2sTransposed(q, 0, dim, centroidsT, 0, p, s.dist, 0, s.scratch);
      for (int c = 0; c < p; c++) {
        nearest.offer(s.dist[c], c);
      }
    }
    Neighbors nearestPartitions = nearest.result();
    long[] ordered = nearestPartitions.rowIds();
    float[] orderedDist = nearestPartitions.distances();
    probes = Math.max(probes, Math.min(maxProbes, earlyPruning(orderedDist, dot, probeRange.queryK())));
    long[] probed = Arrays.copyOf(ordered, Math.min(probes, ordered.length));
    float[] probedDist = Arrays.copyOf(orderedDist, probed.length);
    Object query0 = prepare(q, k, probeRange.ef());
    NearestRows top = searchPartitions(query0, probed, probedDist, k, accept, parallelRows);
    // Lance's late search: one more partition at a time, nearest first, until the query's k rows
    // are found. (A row is only skipped by the top's bound once k rows are kept, so fewer kept
    // than wanted (at most k) means fewer accepted rows were seen.)
    int wanted = Math.min(k, probeRange.queryK());
    for (int at = probed.length; at < ordered.length && top.size() < wanted; at++) {
      top.offerAll(scan(query0, new long[] {ordered[at]}, new float[] {orderedDist[at]}, new AtomicInteger(), k,
          accept));
    }
    return neighbors(top);
  }

  /**
   * What the kind's scans take for the (normalised if cosine) query {@code q} asking {@code k}
   * rows with graph search width {@code ef} (0: the default): computed once per search, shared by
   * its threads (so read only).
   */
  abstract Object prepare(float[] q, int k, int ef);

  /**
   * The k nearest accepted rows (by position in {@link #rowIds}) of the probed partitions this
   * thread claims one at a time from {@code next}; {@code probedDist[i]} is the query's distance
   * to partition {@code probed[i]}'s centroid (squared L2; DOT: minus the inner product).
   */
  abstract NearestRows scan(Object query, long[] probed, float[] probedDist, AtomicInteger next, int k,
      LongPredicate accept);

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
  private NearestRows searchPartitions(Object q, long[] probed, float[] probedDist, int k, LongPredicate accept,
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

  /**
   * Offers the rows {@code base .. base + n) at {@code dist[0 .. n)} to top. Kept apart from the
   * distance loops: most rows fail the first test, and with the offers inlined those loops ran
   * slower.
   */
  final void offerAll(float[] dist, int base, int n, NearestRows top, LongPredicate accept) {
    float bound = top.bound();
    for (int i = 0; i < n; i++) {
      float d = dist[i];
      if (d <= bound && (accept == null || accept.test(rowIds[base + i]))) {
        top.offer(d, base + i);
        bound = top.bound();
      }
    }
  }

  private static final ThreadLocal<CentroidScratch> CENTROID_SCRATCH = ThreadLocal.withInitial(CentroidScratch::new);

  // Per-thread buffers for the centroid distances, so that a search allocates little.
  private static final class CentroidScratch {
    float[] dist = new float[0];
    float[][] scratch = VectorMath.l2sScratch(0);

    CentroidScratch ensure(int p) {
      if (dist.length < p) {
        dist = new float[p];
        scratch = VectorMath.l2sScratch(p);
      }
      return this;
    }
  }
}
