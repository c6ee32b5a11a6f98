package dev.javelin.core.internal.index;

import com.google.protobuf.Any;
import dev.javelin.core.Dataset;
import dev.javelin.format.schema.LanceField;
import dev.javelin.index.exceptions.VectorIndexException;
import dev.javelin.index.internal.ivf.IvfBuilder;
import dev.javelin.io.ObjectStore;
import dev.javelin.table.Fragment;
import dev.javelin.table.IndexMetadata;
import dev.javelin.table.Manifest;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.LongPredicate;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.roaringbitmap.RoaringBitmap;

/**
 * IVF vector indices of every kind Javelin builds (IVF_PQ, IVF_FLAT, IVF_SQ) over a
 * {@code fixed_size_list<float32>} column ({@code index.idx} and {@code auxiliary.idx}, listed in
 * the entry with their sizes as lance-core 7.0.0 does). A new index takes two passes over the
 * live, non-null vectors: a reservoir sample to train on, then every vector encoded; the kinds
 * differ in the builder they train ({@link #newBuilder}) and the details they record. Optimize
 * is the same for every kind: it keeps the first entry's trained parts (centroids, and codebook
 * or bounds): new rows are assigned to its partitions and encoded as it encodes them (what
 * lance-core's append mode writes as a delta index), and the entries' still-live rows are
 * carried over, all merged into one new index of the first entry's kind. Nothing is retrained
 * or re-partitioned; a delta whose kind or trained parts differ has its fragments' rows encoded
 * anew.
 */
abstract class IvfKind implements IndexKind {
  /** The builder of a new index over {@code rows} vectors of {@code dim} dimensions. */
  abstract IvfBuilder newBuilder(int dim, long rows);

  /** Trains the builder of a new index on the sample. */
  abstract void train(IvfBuilder builder, float[] sample, int sampleRows);

  /** Training rows a new index wants. */
  abstract int sampleSize(int dim, long rows);

  /** The seed of a new index's reservoir sample. */
  abstract long seed(int dim, long rows);

  /** A new index's {@code index_details}. */
  abstract Any details(int dim, long rows);

  @Override
  public IndexKind.Builder create(Dataset ds, LanceField field, BufferAllocator allocator) {
    int dim = VectorColumn.dimension(field.toArrow(), ds.location());
    long rows = ds.manifest().countRows();
    return new NewIndex(this, dim, rows, allocator);
  }

  @Override
  public LanceField field(Dataset ds, String column) {
    return VectorColumn.field(ds, column);
  }

  @Override
  public List<String> fileNames() {
    return List.of("index.idx", "auxiliary.idx");
  }

  /**
   * {@inheritDoc}
   *
   * @throws VectorIndexException if an entry's files are not an IVF index Javelin reads
   */
  @Override
  public Extension extend(Dataset ds, List<IndexMetadata> entries, LanceField field, List<Fragment> fresh,
      BufferAllocator allocator) throws IOException {
    Manifest m = ds.manifest();
    List<Fragment> encode = new ArrayList<>(fresh);
    RoaringBitmap covered = new RoaringBitmap();
    IvfBuilder builder = null;
    for (IndexMetadata e : entries) {
      RoaringBitmap bitmap = e.fragmentBitmap();
      LongPredicate keep = IndexRowIds.liveIn(ds, bitmap, allocator);
      // A shallow clone's entries may be its source's; the extended index is the clone's own.
      ObjectStore from = m.basePaths().indexStore(ds.store(), e);
      if (builder == null) {
        builder = IvfBuilder.extending(from, e.uuid(), keep, allocator);
      } else if (!builder.addRowsOf(from, e.uuid(), keep, allocator)) {
        for (Fragment f : m.fragments()) {
          if (bitmap.contains((int) f.id()) && !covered.contains((int) f.id())) {
            encode.add(f);
          }
        }
      }
      covered.or(bitmap);
    }
    // The column is checked when there are rows to encode (none to read: nothing to check).
    int dim = encode.isEmpty() ? 0 : VectorColumn.dimension(field.toArrow(), ds.location());
    return new Extension(new Extending(builder, dim, allocator), encode);
  }

  @Override
  public String skipReason(RuntimeException e) {
    return e instanceof VectorIndexException ? e.getMessage() : null;
  }

  @Override
  public RuntimeException buildFailed(RuntimeException e, String indexName, String column, String location) {
    return e instanceof VectorIndexException
        ? new VectorIndexException("Creating index '" + indexName + "' on '" + column + "' failed: "
            + e.getMessage() + ": " + location, e)
        : e;
  }

  /** The index's vectors: what {@link IvfBuilder} takes from a batch, and its files. */
  private abstract static class Vectors implements IndexKind.Builder {
    final IvfBuilder builder;
    final int dim;
    final BufferAllocator allocator;
    // The batch's non-null vectors, back to back, and their row ids.
    float[] vectors = new float[0];
    long[] ids = new long[0];

    Vectors(IvfBuilder builder, int dim, BufferAllocator allocator) {
      this.builder = builder;
      this.dim = dim;
      this.allocator = allocator;
    }

    // Copies the batch's non-null vectors and their ids; returns how many.
    int nonNull(FieldVector values, long[] rowIds, int n) {
      if (vectors.length < n * dim) {
        vectors = new float[n * dim];
        ids = new long[n];
      }
      FixedSizeListVector v = VectorColumn.asVectors(values);
      int kept = VectorColumn.copy(v, dim, n, vectors);
      int k = 0;
      for (int i = 0; i < n; i++) {
        if (!v.isNull(i)) {
          ids[k++] = rowIds[i];
        }
      }
      return kept;
    }

    @Override
    public List<IndexMetadata.IndexFile> write(ObjectStore store, String directory) throws IOException {
      long[] sizes = builder.write(store, directory, allocator);
      return List.of(new IndexMetadata.IndexFile("index.idx", sizes[0]),
          new IndexMetadata.IndexFile("auxiliary.idx", sizes[1]));
    }

    @Override
    public long rowsDropped() {
      return builder.rowsDropped();
    }
  }

  /** A new index: a reservoir sample of the vectors (pass 0), training, then every vector encoded (pass 1). */
  private static final class NewIndex extends Vectors {
    private final IvfKind kind;
    private final long rows;
    private final float[] sample;
    private final Random random;
    private long seen;
    private int pass;

    NewIndex(IvfKind kind, int dim, long rows, BufferAllocator allocator) {
      super(kind.newBuilder(dim, rows), dim, allocator);
      this.kind = kind;
      this.rows = rows;
      this.sample = new float[Math.min(kind.sampleSize(dim, rows), (int) Math.min(Integer.MAX_VALUE / 2, rows)) * dim];
      this.random = new Random(kind.seed(dim, rows));
    }

    @Override
    public int passes() {
      return 2;
    }

    @Override
    public void startPass(int pass) {
      this.pass = pass;
      if (pass == 1) {
        kind.train(builder, sample, (int) Math.min(seen, sample.length / dim));
      }
    }

    @Override
    public void add(FieldVector values, long[] rowIds, int n) {
      int k = nonNull(values, rowIds, n);
      if (pass == 1) {
        builder.add(vectors, k, ids);
        return;
      }
      // A uniform sample (reservoir) of the non-null vectors.
      for (int i = 0; i < k; i++) {
        long s = seen++;
        if (s < sample.length / dim) {
          System.arraycopy(vectors, i * dim, sample, (int) s * dim, dim);
        } else {
          long j = (long) (random.nextDouble() * (s + 1));
          if (j < sample.length / dim) {
            System.arraycopy(vectors, i * dim, sample, (int) j * dim, dim);
          }
        }
      }
    }

    @Override
    public void describe(IndexMetadata.Builder entry) {
      Any details = kind.details(dim, rows);
      entry.details(new IndexMetadata.Details(details.getTypeUrl(), details.getValue())).indexVersion(1);
    }

    @Override
    public long rowsAdded() {
      return builder.rows();
    }
  }

  /** An extension of an index: its rows carried over, the scanned fragments' vectors encoded with its model. */
  private static final class Extending extends Vectors {
    private final long carried;

    Extending(IvfBuilder builder, int dim, BufferAllocator allocator) {
      super(builder, dim, allocator);
      this.carried = builder.rows();
    }

    @Override
    public void add(FieldVector values, long[] rowIds, int n) {
      int k = nonNull(values, rowIds, n);
      builder.add(vectors, k, ids);
    }

    @Override
    public void describe(IndexMetadata.Builder entry) {}

    @Override
    public long rowsAdded() {
      return builder.rows() - carried;
    }
  }
}
