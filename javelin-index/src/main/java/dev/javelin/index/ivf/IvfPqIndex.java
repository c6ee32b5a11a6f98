package dev.javelin.index.ivf;

import dev.javelin.index.BTreeIndex;
import dev.javelin.index.RowAddressMap;
import dev.javelin.table.io.ObjectStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongPredicate;
import org.apache.arrow.memory.BufferAllocator;

/**
 * An open IVF_PQ index ({@code _indices/{uuid}/index.idx} and {@code auxiliary.idx}, Lance's v3
 * layout, from lance-core or Javelin). Opening loads the centroids, the codebook, and every row's
 * id and codes into Java arrays (m bytes and 8 bytes a row), so the index holds no Arrow memory
 * and needs no closing; it is safe to search from several threads.
 */
public final class IvfPqIndex {
  private final IvfPqModel model;
  private final long[] offsets;
  private final int[] lengths;
  private final long[] rowIds;
  private final byte[] codes;
  // Below this many rows to scan, a search stays on the caller's thread (forking costs more).
  private static final long PARALLEL_ROWS = 65_536;

  private IvfPqIndex(IvfPqFiles.Contents c) {
    this.model = c.model();
    this.offsets = c.offsets();
    this.lengths = c.lengths();
    this.rowIds = c.rowIds();
    this.codes = c.codes();
  }

  /**
   * Opens the index with this uuid in the dataset at {@code store}.
   *
   * @throws VectorIndexException if the files are not an IVF_PQ index Javelin reads (8-bit,
   *     transposed, float32)
   */
  public static IvfPqIndex open(ObjectStore store, String uuid, BufferAllocator allocator) throws IOException {
    return new IvfPqIndex(IvfPqFiles.read(store, BTreeIndex.directory(uuid), allocator));
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

  /** {@link #search}, on several threads once the probed partitions hold {@code parallelRows} rows. */
  Neighbors search(float[] query, int k, int nprobes, LongPredicate accept, long parallelRows) {
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
    int probes = Math.max(1, Math.min(nprobes, p));
    // Nearest centroids first. For L2 and cosine all P distances at once from the transposed
    // centroids (vectorised, equal bit for bit to one l2 per centroid).
    TopK nearest = new TopK(probes);
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
    long[] probed = nearest.result().rowIds();
    long rows = 0;
    for (long c : probed) {
      rows += lengths[(int) c];
    }
    int workers = Math.min(probed.length, HELPERS + 1);
    if (workers < 2 || rows < parallelRows) {
      return scan(q, probed, new AtomicInteger(), k, accept).result();
    }
    // Like Lance, a large search runs its partitions on several threads: each keeps its own k
    // nearest, and since (distance, row id) orders rows totally, the k nearest of their union
    // are exactly the k nearest of a single pass. The threads claim partitions one at a time
    // (nearest first) from a shared counter, so a helper the OS does not run soon costs
    // nothing: the caller takes the partitions it would have, and a helper task that has not
    // started by the time the caller is done is cancelled rather than waited for.
    // (A task's flag is set by whichever comes first: the task starting, or the caller giving
    // up on it; Future.cancel cannot tell a running task from a waiting one.)
    AtomicInteger next = new AtomicInteger();
    List<Future<TopK>> tasks = new ArrayList<>();
    List<AtomicBoolean> taken = new ArrayList<>();
    for (int w = 1; w < workers; w++) {
      AtomicBoolean flag = new AtomicBoolean();
      taken.add(flag);
      tasks.add(POOL.submit(() -> flag.compareAndSet(false, true) ? scan(q, probed, next, k, accept) : null));
    }
    TopK top = scan(q, probed, next, k, accept);
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
    return top.result();
  }

  // The k nearest accepted rows of the probed partitions this thread claims from next.
  private TopK scan(float[] q, long[] probed, AtomicInteger next, int k, LongPredicate accept) {
    int dim = model.dim;
    boolean dot = model.distanceType == DistanceType.DOT;
    int m = model.pq.m;
    TopK top = new TopK(k);
    Scratch s = SCRATCH.get().ensure(m, dim);
    float[] table = s.table;
    if (dot) {
      model.pq.distanceTable(q, table, s.tableScratch);
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
      if (!dot) {
        // With residuals the table depends on the partition's centroid (as in Lance).
        for (int i = 0; i < dim; i++) {
          residual[i] = q[i] - model.centroids[c * dim + i];
        }
        model.pq.distanceTable(residual, table, s.tableScratch);
      }
      adc(table, (int) offsets[c], n, m, scale, shift, top, accept);
    }
    return top;
  }

  // Offers the row at index row (in rowIds) at distance d to top, if it may enter and accept keeps it.
  private void offer(TopK top, LongPredicate accept, int row, float d) {
    if (d <= top.bound()) {
      long id = rowIds[row];
      if (accept == null || accept.test(id)) {
        top.offer(d, id);
      }
    }
  }

  /**
   * Offers the {@code n} rows of the partition at row {@code base} to {@code top}, each at
   * {@code shift + scale * (sum of its table entries)}. Codes are transposed: sub-vector j of
   * the partition's rows is one run of n bytes. Each row's sum runs over the sub-vectors in
   * order (j = 0, 1, ...), as Lance's does. Eight rows at a time: one 8-byte load gives
   * sub-vector j's codes of all eight, and their eight running sums stay in registers across
   * all sub-vectors, so the loop does one table load per code and no other memory traffic
   * (the earlier loop, a byte load per code and a distance array loaded and stored per row and
   * pass of eight sub-vectors, took 1.55x the CPU time, measured on 1M rows x 16 codes).
   */
  private void adc(float[] table, int base, int n, int m, float scale, float shift, TopK top,
      LongPredicate accept) {
    final int w = ProductQuantizer.CENTROIDS;
    byte[] codes = this.codes;
    int first = base * m;
    int i = 0;
    for (; i + 7 < n; i += 8) {
      float d0 = 0f;
      float d1 = 0f;
      float d2 = 0f;
      float d3 = 0f;
      float d4 = 0f;
      float d5 = 0f;
      float d6 = 0f;
      float d7 = 0f;
      int at = first + i;
      for (int j = 0, t = 0; j < m; j++, t += w, at += n) {
        long c = (long) CODES8.get(codes, at);
        d0 += table[t + (int) (c & 0xFF)];
        d1 += table[t + (int) ((c >>> 8) & 0xFF)];
        d2 += table[t + (int) ((c >>> 16) & 0xFF)];
        d3 += table[t + (int) ((c >>> 24) & 0xFF)];
        d4 += table[t + (int) ((c >>> 32) & 0xFF)];
        d5 += table[t + (int) ((c >>> 40) & 0xFF)];
        d6 += table[t + (int) ((c >>> 48) & 0xFF)];
        d7 += table[t + (int) (c >>> 56)];
      }
      int row = base + i;
      offer(top, accept, row, shift + scale * d0);
      offer(top, accept, row + 1, shift + scale * d1);
      offer(top, accept, row + 2, shift + scale * d2);
      offer(top, accept, row + 3, shift + scale * d3);
      offer(top, accept, row + 4, shift + scale * d4);
      offer(top, accept, row + 5, shift + scale * d5);
      offer(top, accept, row + 6, shift + scale * d6);
      offer(top, accept, row + 7, shift + scale * d7);
    }
    for (; i < n; i++) {
      float d = 0f;
      for (int j = 0, r = first + i; j < m; j++, r += n) {
        d += table[j * w + (codes[r] & 0xFF)];
      }
      offer(top, accept, base + i, shift + scale * d);
    }
  }

  // Eight codes at once, the first in the lowest byte.
  private static final VarHandle CODES8 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  // Helper threads of large searches: one per core beyond the caller's, kept for the JVM's life
  // (daemons), so a search neither starts threads nor competes in the common pool.
  private static final int HELPERS = Math.max(0, Runtime.getRuntime().availableProcessors() - 1);
  private static final ExecutorService POOL = HELPERS == 0 ? null : Executors.newFixedThreadPool(HELPERS, r -> {
    Thread t = new Thread(r, "javelin-ivf-search");
    t.setDaemon(true);
    return t;
  });

  // Per-thread buffers of a search, so that the common path allocates nothing per partition.
  private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

  private static final class Scratch {
    float[] table = new float[0];
    final float[][] tableScratch = VectorMath.l2sScratch(ProductQuantizer.CENTROIDS);
    float[] residual = new float[0];

    float[] centroidDist = new float[0];
    float[][] centroidScratch = VectorMath.l2sScratch(0);

    Scratch ensureCentroids(int p) {
      if (centroidDist.length < p) {
        centroidDist = new float[p];
        centroidScratch = VectorMath.l2sScratch(p);
      }
      return this;
    }

    Scratch ensure(int m, int dim) {
      if (table.length < m * ProductQuantizer.CENTROIDS) {
        table = new float[m * ProductQuantizer.CENTROIDS];
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
    IvfPqFiles.Contents c = IvfPqFiles.read(store, BTreeIndex.directory(oldUuid), allocator);
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
        java.util.Arrays.copyOf(ids, out), java.util.Arrays.copyOf(codes, out * m), allocator);
  }
}
