package dev.javelin.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.index.DistanceType;
import dev.javelin.index.IndexType;
import dev.javelin.index.internal.ivf.IvfIndex;
import dev.javelin.index.internal.ivf.Neighbors;
import dev.javelin.testing.TestAllocator;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.function.LongPredicate;
import java.util.stream.LongStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * IVF_FLAT and IVF_SQ through the public API: built with {@code createIndex(col).ivfFlat/ivfSq},
 * searched (equal to exact search with every partition probed), filtered, extended by optimize
 * after an append, and never returning deleted rows.
 */
class IvfFlatSqIndexTest {
  static final int DIM = 16;
  static final int PARTITIONS = 6;
  static final Schema SCHEMA = new Schema(List.of(
      new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
      new Field("v", FieldType.nullable(new ArrowType.FixedSizeList(DIM)), List.of(
          new Field("item", FieldType.nullable(new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)), null)))));

  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  enum Kind { IVF_FLAT, IVF_SQ }

  /** Row {@code id}'s vector: near one of 20 centres. */
  static float[] vector(long id) {
    Random c = new Random(7 + id % 20);
    Random n = new Random(500 + id);
    float[] v = new float[DIM];
    for (int j = 0; j < DIM; j++) {
      v[j] = c.nextFloat() * 10 + (float) n.nextGaussian() * 0.5f;
    }
    return v;
  }

  private Dataset write(Dataset ds, long start, int rows) {
    VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator);
    try (root) {
      root.allocateNew();
      FixedSizeListVector v = (FixedSizeListVector) root.getVector("v");
      Float4Vector f = (Float4Vector) v.getDataVector();
      for (int i = 0; i < rows; i++) {
        long id = start + i;
        ((BigIntVector) root.getVector("id")).setSafe(i, id);
        v.setNotNull(i);
        float[] x = vector(id);
        for (int j = 0; j < DIM; j++) {
          f.setSafe(i * DIM + j, x[j]);
        }
      }
      root.setRowCount(rows);
      WriteParams params = WriteParams.builder().maxRowsPerFile(2000).build();
      return ds == null ? Dataset.create(dir.resolve("ds"), List.of(root), params, allocator)
          : ds.append(List.of(root), params);
    }
  }

  /** The ids of the k live rows nearest q among ids [0, rows) that {@code keep} accepts, by L2. */
  static List<Long> exact(float[] q, long rows, LongPredicate keep, int k) {
    return LongStream.range(0, rows).filter(keep).boxed()
        .sorted(Comparator.comparingDouble((Long id) -> DistanceType.L2.distance(q, 0, vector(id), 0, DIM))
            .thenComparing(id -> id))
        .limit(k).toList();
  }

  // Row addresses -> ids: rows were written in id order, 2000 per fragment.
  static List<Long> ids(Neighbors n) {
    List<Long> out = new ArrayList<>();
    for (long a : n.rowIds()) {
      out.add((a >>> 32) * 2000 + (a & 0xFFFFFFFFL));
    }
    return out;
  }

  private IndexBuilder kind(IndexBuilder b, Kind kind) {
    return kind == Kind.IVF_FLAT ? b.ivfFlat(PARTITIONS, DistanceType.L2) : b.ivfSq(PARTITIONS, DistanceType.L2);
  }

  @ParameterizedTest
  @EnumSource(Kind.class)
  void builtSearchedOptimizedAndDeletedRowsLeftOut(Kind kind) throws IOException {
    Dataset ds = write(null, 0, 6000);
    CreateIndexResult created = kind(ds.createIndex("v"), kind).commit();
    ds = created.dataset();
    assertThat(created.index().type()).isEqualTo(IndexType.VECTOR);
    assertThat(created.index().fragments()).containsExactly(0L, 1L, 2L);
    try (var unused = allocator.newChildAllocator("open", 0, Long.MAX_VALUE)) {
      IvfIndex index = IvfIndex.open(ds.store(), created.index().uuid(), unused);
      assertThat(index.kind()).isEqualTo(kind.name());
      assertThat(index.numRows()).isEqualTo(6000);
      assertThat(index.numPartitions()).isEqualTo(PARTITIONS);
    }
    int refine = kind == Kind.IVF_SQ ? 10 : 0;
    for (int s = 0; s < 5; s++) {
      float[] q = vector(new Random(s).nextInt(6000));
      q[0] += 0.2f;
      VectorQuery query = ds.nearest("v", q).k(10).nprobes(PARTITIONS).refineFactor(refine);
      VectorSearchPlan plan = query.explain();
      assertThat(plan.index().kind()).isEqualTo(kind.name());
      assertThat(plan.exactFragments()).isEmpty();
      assertThat(plan.approximateDistances()).isFalse();
      assertThat(ids(query.neighbors())).containsExactlyElementsOf(exact(q, 6000, id -> true, 10));
      // A prefilter: the k nearest of the rows that pass.
      assertThat(ids(ds.nearest("v", q).k(10).nprobes(PARTITIONS).refineFactor(refine).filter("id % 3 = 1")
          .prefilter(true).neighbors())).containsExactlyElementsOf(exact(q, 6000, id -> id % 3 == 1, 10));
    }
    if (kind == Kind.IVF_SQ) {
      // Without a refine factor the distances are the codes'.
      VectorSearchPlan plan = ds.nearest("v", vector(1)).k(10).explain();
      assertThat(plan.approximateDistances()).isTrue();
      assertThat(plan.describe()).contains("distances: approximate (SQ codes; a refine factor gives true distances)");
    } else {
      float[] q = vector(17);
      Neighbors got = ds.nearest("v", q).k(5).nprobes(PARTITIONS).neighbors();
      for (int i = 0; i < got.size(); i++) {
        long id = ids(got).get(i);
        assertThat(got.distances()[i]).isEqualTo(DistanceType.L2.distance(q, 0, vector(id), 0, DIM));
      }
    }

    // Appended rows: searched exactly until optimize puts them into the existing partitions.
    ds = write(ds, 6000, 2000);
    assertThat(ds.nearest("v", vector(7000)).k(10).explain().exactFragments()).containsExactly(3L);
    IndexOptimizeResult r = ds.optimizeIndices();
    assertThat(r.indices()).containsExactly(new OptimizedIndex("v_idx", IndexType.VECTOR,
        OptimizedIndex.Outcome.MERGED, List.of(3L), 2000, 0, 1, ""));
    Dataset opt = r.dataset();
    VectorSearchPlan plan = opt.nearest("v", vector(7000)).k(10).explain();
    assertThat(plan.exactFragments()).isEmpty();
    assertThat(plan.indexedFragments()).containsExactly(0L, 1L, 2L, 3L);
    IvfIndex extended = IvfIndex.open(opt.store(), opt.indices().get(0).uuid(), allocator);
    assertThat(extended.kind()).isEqualTo(kind.name());
    assertThat(extended.numRows()).isEqualTo(8000);
    for (long id : new long[] {6001, 7777}) {
      float[] q = vector(id);
      assertThat(ids(opt.nearest("v", q).k(10).nprobes(PARTITIONS).refineFactor(refine).neighbors()))
          .containsExactlyElementsOf(exact(q, 8000, x -> true, 10));
    }

    // Deleted rows are never returned, and optimize drops them from the index.
    Dataset deleted = opt.delete("id % 2 = 0");
    float[] q = vector(4242);
    assertThat(ids(deleted.nearest("v", q).k(10).nprobes(PARTITIONS).refineFactor(refine).neighbors()))
        .containsExactlyElementsOf(exact(q, 8000, id -> id % 2 == 1, 10));
  }

  @ParameterizedTest
  @EnumSource(Kind.class)
  void badParametersAreRefused(Kind kind) {
    Dataset ds = write(null, 0, 100);
    assertThatThrownBy(() -> {
      if (kind == Kind.IVF_FLAT) {
        ds.createIndex("v").ivfFlat(0, DistanceType.L2);
      } else {
        ds.createIndex("v").ivfSq(0, DistanceType.L2);
      }
    })
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("numPartitions must be at least 1, got 0");
    // More partitions than rows: the build fails, the dataset stays as it was, no files are left.
    long version = ds.version();
    IndexBuilder tooMany = kind == Kind.IVF_FLAT ? ds.createIndex("v").ivfFlat(200, DistanceType.L2)
        : ds.createIndex("v").ivfSq(200, DistanceType.L2);
    assertThatThrownBy(tooMany::commit)
        .hasMessage("Creating index 'v_idx' on 'v' failed: Cannot train 200 IVF partitions on 100 rows: "
            + ds.location());
    assertThat(Dataset.open(dir.resolve("ds"), allocator).version()).isEqualTo(version);
    String[] left = dir.resolve("ds/_indices").toFile().list();
    assertThat(left == null ? List.of() : Arrays.asList(left)).isEmpty();
  }
}
