package dev.javelin.compat;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.core.Dataset;
import dev.javelin.core.VectorQuery;
import dev.javelin.core.VectorSearchPlan;
import dev.javelin.index.internal.ivf.Neighbors;
import dev.javelin.testing.TestAllocator;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.lance.index.DistanceType;
import org.lance.index.IndexParams;
import org.lance.index.IndexType;
import org.lance.index.vector.HnswBuildParams;
import org.lance.index.vector.IvfBuildParams;
import org.lance.index.vector.PQBuildParams;
import org.lance.index.vector.VectorIndexParams;

/**
 * Vector indices lance-core 7.0.0 builds that Javelin cannot read yet: a query on the column does
 * not fail, it searches the fragments such an index covers exactly (compared with brute force),
 * and {@code explain} says why.
 */
class OtherVectorIndexKindsCompatTest {
  static final int ROWS = 3000;
  static final VectorCompatData DATA = new VectorCompatData(ROWS, 21);

  /** A kind lance-core builds, the parameters it takes, and what Javelin calls it. */
  enum Kind {
    IVF_RQ(IndexType.IVF_RQ, "IVF_RQ"),
    IVF_HNSW_PQ(IndexType.IVF_HNSW_PQ, "IVF_HNSW_PQ"),
    IVF_PQ_4BIT(IndexType.IVF_PQ, "IVF_PQ (4-bit codes)");

    final IndexType type;
    final String javelinName;

    Kind(IndexType type, String javelinName) {
      this.type = type;
      this.javelinName = javelinName;
    }

    VectorIndexParams params() {
      IvfBuildParams ivf = new IvfBuildParams.Builder().setNumPartitions(4).setMaxIters(10).build();
      PQBuildParams pq = new PQBuildParams.Builder().setNumSubVectors(4).setNumBits(8).build();
      HnswBuildParams hnsw = new HnswBuildParams.Builder().build();
      return switch (this) {
        case IVF_RQ -> VectorIndexParams.ivfRq(4, (byte) 1, DistanceType.L2);
        case IVF_HNSW_PQ -> VectorIndexParams.withIvfHnswPqParams(DistanceType.L2, ivf, hnsw, pq);
        case IVF_PQ_4BIT -> VectorIndexParams.ivfPq(4, 4, 4, DistanceType.L2, 10);
      };
    }
  }

  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  @ParameterizedTest
  @EnumSource(Kind.class)
  void javelinSearchesExactlyWhereTheIndexCannotBeRead(Kind kind) throws Exception {
    Path path = dir.resolve("ds");
    DATA.lanceWrite(allocator, path, 0, ROWS - 500, 1000, false);
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      lance.createIndex(List.of("v"), kind.type, Optional.of("v_idx"),
          IndexParams.builder().setVectorIndexParams(kind.params()).build(), false);
    }
    // A fragment the index does not cover, searched exactly in any case.
    DATA.lanceWrite(allocator, path, ROWS - 500, ROWS, 1000, false);
    Dataset ds = Dataset.open(path, allocator);
    for (int s = 0; s < 5; s++) {
      float[] q = DATA.query(s);
      VectorQuery query = ds.nearest("v", q).k(10);
      Neighbors got = VectorCompatData.javelinNearest(query);
      long[] truth = DATA.truth(q, 10, r -> true);
      assertThat(got.rowIds()).as(kind + " query " + s).containsExactly(truth);
      for (int i = 0; i < got.size(); i++) {
        float d = dev.javelin.index.DistanceType.L2.distance(q, 0, DATA.vectors[(int) got.rowIds()[i]], 0,
            VectorCompatData.DIM);
        assertThat(got.distances()[i]).isEqualTo(d);
      }
      // With a prefilter too.
      Neighbors filtered = VectorCompatData.javelinNearest(ds.nearest("v", q).k(10).filter("id % 7 = 1")
          .prefilter(true));
      assertThat(filtered.rowIds()).containsExactly(DATA.truth(q, 10, r -> r % 7 == 1));
    }
    VectorSearchPlan plan = ds.nearest("v", DATA.query(0)).k(10).explain();
    assertThat(plan.index()).isNull();
    assertThat(plan.exactFragments()).containsExactly(0L, 1L, 2L, 3L);
    assertThat(plan.approximateDistances()).isFalse();
    assertThat(plan.notes()).containsExactly("index 'v_idx' (" + kind.javelinName
        + ") is not readable by Javelin yet; fragments 0-2 searched exactly");
    assertThat(plan.describe()).contains("note: index 'v_idx' (" + kind.javelinName
        + ") is not readable by Javelin yet; fragments 0-2 searched exactly\n");
  }
}
