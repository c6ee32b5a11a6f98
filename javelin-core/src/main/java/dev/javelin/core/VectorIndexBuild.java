package dev.javelin.core;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnknownFieldSet;
import dev.javelin.format.schema.LanceField;
import dev.javelin.index.BTreeIndex;
import dev.javelin.index.ivf.DistanceType;
import dev.javelin.index.ivf.IvfPqBuilder;
import dev.javelin.index.ivf.IvfPqParams;
import dev.javelin.index.ivf.VectorIndexException;
import dev.javelin.table.Fragment;
import dev.javelin.table.Manifest;
import dev.javelin.table.Table;
import dev.javelin.table.Transaction;
import dev.javelin.table.proto.TableProtos;
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
final class VectorIndexBuild {
  private VectorIndexBuild() {}

  static Manifest create(Dataset ds, Table table, String column, IvfPqParams given, String name, boolean replace,
      BufferAllocator allocator) {
    LanceField field = VectorColumn.field(ds, column);
    int dim = VectorColumn.dimension(field.toArrow(), ds.location());
    Manifest m = ds.manifest();
    IvfPqParams params = given != null ? given : IvfPqParams.defaults(m.countRows(), dim, DistanceType.L2);
    String indexName = name == null ? column + "_idx" : name;
    List<TableProtos.IndexMetadata> removed = new ArrayList<>();
    for (TableProtos.IndexMetadata existing : m.indices()) {
      if (existing.getName().equals(indexName)) {
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
      VectorColumn.scan(ds, fragments, field, null, allocator, (v, a, n) -> {
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
      // Pass 2: every vector, with its row id (as Lance: the stable row id when the dataset has them).
      VectorColumn.scan(ds, fragments, field, null, DatasetReader.Meta.ROW_ID, allocator,
          (v, a, n) -> builder.add(v, n, a));
      long[] sizes = builder.write(ds.store(), dir, allocator);
      RoaringBitmap covered = new RoaringBitmap();
      for (Fragment f : fragments) {
        covered.add((int) f.id());
      }
      // Field 10 (the index's files and sizes) is what 7.0.0 records; Javelin's proto lacks it.
      UnknownFieldSet.Field.Builder files = UnknownFieldSet.Field.newBuilder();
      String[] names = {"index.idx", "auxiliary.idx"};
      for (int i = 0; i < 2; i++) {
        files.addLengthDelimited(UnknownFieldSet.newBuilder()
            .addField(1, UnknownFieldSet.Field.newBuilder()
                .addLengthDelimited(ByteString.copyFromUtf8(names[i])).build())
            .addField(2, UnknownFieldSet.Field.newBuilder().addVarint(sizes[i]).build())
            .build().toByteString());
      }
      TableProtos.IndexMetadata meta = TableProtos.IndexMetadata.newBuilder()
          .setUuid(TableProtos.UUID.newBuilder().setUuid(dev.javelin.table.IndexUuids.toBytes(uuid)))
          .addFields(field.id())
          .setName(indexName)
          .setDatasetVersion(m.version())
          .setFragmentBitmap(dev.javelin.table.IndexBitmaps.write(covered))
          .setIndexDetails(IvfPqBuilder.details(params))
          .setIndexVersion(1)
          .setCreatedAt(System.currentTimeMillis())
          .setUnknownFields(UnknownFieldSet.newBuilder().addField(10, files.build()).build())
          .build();
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
        for (String k : written) {
          try {
            ds.store().delete(k);
          } catch (IOException | RuntimeException ignored) {
            // best effort; the original failure is what matters
          }
        }
      }
    }
  }
}
