package dev.javelin.index.internal.ivf;

import dev.javelin.common.ThreadPools;
import dev.javelin.index.DistanceType;
import dev.javelin.index.exceptions.VectorIndexException;
import dev.javelin.index.internal.btree.BTreeIndex;
import dev.javelin.io.ObjectStore;
import java.io.IOException;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongPredicate;
import org.apache.arrow.memory.BufferAllocator;

/**
 * An open IVF_PQ index ({@code _indices/{uuid}/index.idx} and {@code auxiliary.idx}, Lance's v3
 * layout, from lance-core or Javelin; see {@link IvfIndex}). Opening loads the centroids, the
 * codebook, and every row's id and codes into Java arrays (m bytes and 8 bytes a row; codes
 * regrouped in blocks of eight rows for {@link AdcKernel}).
 */
public final class IvfPqIndex extends IvfIndex {
  static final String KIND = IvfPqFiles.KIND;
  private final IvfPqModel model;
  // Codes in AdcKernel's blocks of eight rows, partition c's from blockOffsets[c].
  private final byte[] blocked;
  private final int[] blockOffsets;
  // L2 and cosine: per partition p, ||c||^2 + 2 <C_p, c> for every PQ centroid c of every
  // sub-vector (C_p: the centroid's sub-vector), or null when that would exceed TERMS_LIMIT.
  private final float[][][] partitionTerms;
  private static final long TERMS_LIMIT = 16L << 20;

  private IvfPqIndex(IvfPqFiles.Contents c, long termsLimit, ThreadPools pools) {
    super(c.model().dim, c.model().centroids, c.model().distanceType, c.offsets(), c.lengths(), c.rowIds(), pools);
    this.model = c.model();
    int m = model.pq.m;
    int p = offsets.length;
    this.blockOffsets = new int[p];
    long size = 0;
    for (int part = 0; part < p; part++) {
      blockOffsets[part] = (int) size;
      size += AdcKernel.blockedSize(lengths[part], m);
    }
    if (size > Integer.MAX_VALUE - 16) {
      throw new VectorIndexException("IVF_PQ index too large to search in memory: " + size + " bytes of codes");
    }
    this.blocked = new byte[(int) size];
    for (int part = 0; part < p; part++) {
      AdcKernel.blocked(c.codes(), (int) offsets[part] * m, lengths[part], m, blocked, blockOffsets[part]);
    }
    this.partitionTerms = model.residual() && (long) p * m * ProductQuantizer.CENTROIDS <= termsLimit
        ? partitionTerms(model) : null;
  }

  static IvfPqIndex open(IvfPqFiles.Contents c, ThreadPools pools) {
    return new IvfPqIndex(c, TERMS_LIMIT, pools);
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
   * Opens the IVF_PQ index with this uuid in the dataset at {@code store}, to search on the
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

  @Override
  public String kind() {
    return KIND;
  }

  @Override
  public boolean approximate() {
    return true;
  }

  public int numSubVectors() {
    return model.pq.m;
  }

  @Override
  Object prepare(float[] q, int k, int ef) {
    return q;
  }

  // The k nearest accepted rows of the probed partitions this thread claims from next.
  @Override
  NearestRows scan(Object query, long[] probed, float[] probedDist, AtomicInteger next, int k,
      LongPredicate accept) {
    float[] q = (float[]) query;
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
      offerSums(s.sums, (int) offsets[c], n, constant, scale, shift, top, accept);
    }
    return top;
  }

  /**
   * Offers the partition's rows (from row {@code base} in rowIds) at {@code shift + scale *
   * (constant + sum)} to top. Kept apart from the sums' loop: most rows fail the first test, and
   * with the offers inlined the sums' loop ran slower.
   */
  private void offerSums(float[] sums, int base, int n, float constant, float scale, float shift,
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
}
