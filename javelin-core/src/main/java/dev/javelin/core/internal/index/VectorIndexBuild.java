package dev.javelin.core.internal.index;

import dev.javelin.core.Dataset;
import dev.javelin.format.schema.LanceField;
import dev.javelin.index.DistanceType;
import dev.javelin.index.IvfPqParams;
import dev.javelin.index.exceptions.VectorIndexException;
import dev.javelin.index.internal.btree.BTreeIndex;
import dev.javelin.index.internal.ivf.IvfPqBuilder;
import dev.javelin.table.Fragment;
import dev.javelin.table.IndexMetadata;
import dev.javelin.table.Manifest;
import dev.javelin.table.Table;
import dev.javelin.table.Transaction;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.apache.arrow.memory.BufferAllocator;
import org.roaringbitmap.RoaringBitmap;

/**
 * Builds an IVF_PQ index over a vector column and commits it (CreateIndex). Two passes over the
 * live rows of every fragment: a reservoir sample to train on, then every vector encoded.
 */
public final class VectorIndexBuild {
  private VectorIndexBuild() {}

  public static Manifest create(Dataset ds, Table table, String column, IvfPqParams given, String name, boolean replace,
      BufferAllocator allocator) {
    LanceField field = VectorColumn.field(ds, column);
    int dim = VectorColumn.dimension(field.toArrow(), ds.location());
    Manifest m = ds.manifest();
    IvfPqParams params = given != null ? given : IvfPqParams.defaults(m.countRows(), dim, DistanceType.L2);
    String indexName = name == null ? column + "_idx" : name;
    List<IndexMetadata> removed = new ArrayList<>();
    for (IndexMetadata existing : m.indices()) {
      if (existing.name().equals(indexName)) {
        if (!replace) {
          throw new IllegalArgumentException("Index '" + indexName + "' already exists: " + ds.location());
        }
        removed.add(existing);
      }
    }
    String uuid = UUID.randomUUID().toString();
    String dir = BTreeIndex.directory(uuid);
    List<String> written = List.of(dir + "/index.idx", dir + "/auxiliary.idx");
    boolean committed = false;
    try {
      List<Fragment> fragments = m.fragments();
      IvfPqBuilder builder = new IvfPqBuilder(dim, params);
      // Pass 1: a uniform sample (reservoir) of the live, non-null vectors.
      int want = params.sampleSize();
      float[] sample = new float[Math.min(want, (int) Math.min(Integer.MAX_VALUE / 2, m.countRows())) * dim];
      long[] seen = {0};
      Random random = new Random(params.seed());
      VectorColumn.scanRowIds(ds, fragments, field, allocator, (v, a, n) -> {
        for (int i = 0; i < n; i++) {
          long s = seen[0]++;
          if (s < sample.length / dim) {
            System.arraycopy(v, i * dim, sample, (int) s * dim, dim);
          } else {
            long j = (long) (random.nextDouble() * (s + 1));
            if (j < sample.length / dim) {
              System.arraycopy(v, i * dim, sample, (int) j * dim, dim);
            }
          }
        }
      });
      int sampled = (int) Math.min(seen[0], sample.length / dim);
      builder.train(sample, sampled);
      // Pass 2: every vector.
      VectorColumn.scanRowIds(ds, fragments, field, allocator, (v, a, n) -> builder.add(v, n, a));
      long[] sizes = builder.write(ds.store(), dir, allocator);
      RoaringBitmap covered = new RoaringBitmap();
      for (Fragment f : fragments) {
        covered.add((int) f.id());
      }
      com.google.protobuf.Any details = IvfPqBuilder.details(params);
      IndexMetadata meta = withFiles(IndexMetadata.builder()
          .uuid(uuid)
          .fields(List.of(field.id()))
          .name(indexName)
          .datasetVersion(m.version())
          .fragmentBitmap(covered)
          .details(new IndexMetadata.Details(details.getTypeUrl(), details.getValue()))
          .indexVersion(1)
          .createdAt(System.currentTimeMillis()), sizes);
      Transaction txn = Transaction.createIndex(m.version(), List.of(meta), removed);
      committed = true;
      return table.newCommit(txn).cleanupOnFailure(written).commit();
    } catch (IOException e) {
      throw new UncheckedIOException("Creating index '" + indexName + "' failed: " + ds.location(), e);
    } catch (VectorIndexException e) {
      throw new VectorIndexException("Creating index '" + indexName + "' on '" + column + "' failed: "
          + e.getMessage() + ": " + ds.location(), e);
    } finally {
      if (!committed) {
        DatasetIndexes.deleteQuietly(ds, written);
      }
    }
  }

  // The index's files and their sizes (field 10), as lance-core 7.0.0 records them.
  private static IndexMetadata withFiles(IndexMetadata.Builder entry, long[] sizes) {
    return entry.files(List.of(new IndexMetadata.IndexFile("index.idx", sizes[0]),
        new IndexMetadata.IndexFile("auxiliary.idx", sizes[1]))).build();
  }

  /** What {@link #extend} wrote: the entry replacing the old ones, its files, and counts. */
  record Extended(IndexMetadata entry, List<String> files, long rowsAdded, long rowsDropped) {}

  /**
   * Extends a vector index (the entries sharing its name: the index and any delta indices
   * lance-core added) to the {@code fresh} fragments, as Lance's incremental optimize does: the new
   * rows are assigned to the first entry's IVF partitions and encoded with its PQ codebook (what
   * lance-core's append mode writes as a delta index), and the entries' still-live rows (of
   * fragments still in the dataset, not deleted) are carried over with their codes, all merged
   * into one new index under a new uuid. Nothing is retrained or re-partitioned. A delta whose centroids or codebook
   * differ has its fragments' rows encoded anew. Writes the files; the caller commits the entry.
   *
   * @param fresh live fragments none of the entries covers
   * @throws VectorIndexException if an entry's files are not an IVF_PQ index Javelin reads
   */
  static Extended extend(Dataset ds, List<IndexMetadata> entries, LanceField field,
      List<Fragment> fresh, BufferAllocator allocator) throws IOException {
    Manifest m = ds.manifest();
    IndexMetadata first = entries.get(0);
    List<Fragment> encode = new ArrayList<>(fresh);
    RoaringBitmap covered = new RoaringBitmap();
    IvfPqBuilder builder = null;
    for (IndexMetadata e : entries) {
      RoaringBitmap bitmap = e.fragmentBitmap();
      java.util.function.LongPredicate keep = IndexRowIds.liveIn(ds, bitmap, allocator);
      String uuid = e.uuid();
      // A shallow clone's entries may be its source's; the extended index is the clone's own.
      dev.javelin.io.ObjectStore from = m.basePaths().indexStore(ds.store(), e);
      if (builder == null) {
        builder = IvfPqBuilder.extending(from, uuid, keep, allocator);
      } else if (!builder.addRowsOf(from, uuid, keep, allocator)) {
        for (Fragment f : m.fragments()) {
          if (bitmap.contains((int) f.id()) && !covered.contains((int) f.id())) {
            encode.add(f);
          }
        }
      }
      covered.or(bitmap);
    }
    long carried = builder.rows();
    IvfPqBuilder b = builder;
    VectorColumn.scanRowIds(ds, encode, field, allocator, (v, ids, n) -> b.add(v, n, ids));
    RoaringBitmap now = new RoaringBitmap();
    for (Fragment f : m.fragments()) {
      if (covered.contains((int) f.id())) {
        now.add((int) f.id());
      }
    }
    for (Fragment f : fresh) {
      now.add((int) f.id());
    }
    String uuid = UUID.randomUUID().toString();
    String dir = BTreeIndex.directory(uuid);
    List<String> files = List.of(dir + "/index.idx", dir + "/auxiliary.idx");
    long[] sizes;
    try {
      sizes = builder.write(ds.store(), dir, allocator);
    } catch (IOException | RuntimeException e) {
      DatasetIndexes.deleteQuietly(ds, files);
      throw e;
    }
    IndexMetadata entry = withFiles(first.renewed(uuid)
        .datasetVersion(m.version())
        .fragmentBitmap(now)
        .createdAt(System.currentTimeMillis()), sizes);
    return new Extended(entry, files, builder.rows() - carried, builder.rowsDropped());
  }
}
