package dev.javelin.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import dev.javelin.common.Json;
import dev.javelin.core.Dataset;
import dev.javelin.core.VectorSearchPlan;
import dev.javelin.index.internal.ivf.Neighbors;
import dev.javelin.index.proto.IndexProtos;
import dev.javelin.testing.TestAllocator;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.index.DistanceType;
import org.lance.index.IndexParams;
import org.lance.index.vector.HnswBuildParams;
import org.lance.index.vector.IvfBuildParams;
import org.lance.index.vector.SQBuildParams;
import org.lance.index.vector.VectorIndexParams;
import org.lance.ipc.Query;

/**
 * IVF_HNSW_SQ both ways. Indices lance-core 7.0.0 builds, searched by Javelin: at equal settings
 * ({@code nprobes}, {@code ef}) Javelin walks the same graphs by the same SQ code distances; its
 * recall is at least lance-core's (equal at a wide {@code ef}); with a wide search and an exact
 * re-rank both find the exact answer. Graphs Javelin builds: lance-core lists them, searches them
 * with the recall of its own build, and optimizes them; Javelin's optimize rebuilds them with
 * appended rows, which both then find.
 */
class IvfHnswSqCompatTest {
  static final int ROWS = 3000;
  static final int PARTITIONS = 4;
  static final int QUERIES = 20;
  static final VectorCompatData DATA = new VectorCompatData(ROWS, 41);

  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  static Neighbors lance(org.lance.Dataset lance, float[] q, int k, int nprobes, int ef, Integer refine)
      throws Exception {
    Query.Builder qb = new Query.Builder().setColumn("v").setKey(q).setK(k).setNprobes(nprobes).setEf(ef);
    if (refine != null) {
      qb.setRefineFactor(refine);
    }
    return VectorCompatData.lanceNearest(lance, qb.build(), null, false, null);
  }

  static Neighbors javelin(Dataset ds, float[] q, int k, int nprobes, int ef, Integer refine) {
    var query = ds.nearest("v", q).k(k).nprobes(nprobes).maximumNprobes(nprobes).ef(ef);
    if (refine != null) {
      query.refineFactor(refine);
    }
    return VectorCompatData.javelinNearest(query);
  }

  @Test
  void javelinSearchesTheGraphsLanceBuilt() throws Exception {
    Path path = dir.resolve("ds");
    DATA.lanceWrite(allocator, path, 0, ROWS, 1000, false);
    IvfBuildParams ivf = new IvfBuildParams.Builder().setNumPartitions(PARTITIONS).setMaxIters(20).build();
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      lance.createIndex(List.of("v"), org.lance.index.IndexType.IVF_HNSW_SQ, Optional.of("v_idx"),
          IndexParams.builder().setVectorIndexParams(VectorIndexParams.withIvfHnswSqParams(DistanceType.L2, ivf,
              new HnswBuildParams.Builder().build(), new SQBuildParams.Builder().build())).build(), false);
    }
    Dataset ds = Dataset.open(path, allocator);
    VectorSearchPlan plan = ds.nearest("v", DATA.query(0)).k(10).explain();
    assertThat(plan.index().kind()).isEqualTo("IVF_HNSW_SQ");
    assertThat(plan.notes()).isEmpty();
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      for (int ef : new int[] {10, 20, 40}) {
        for (int nprobes : new int[] {1, PARTITIONS}) {
          double jr = 0;
          double lr = 0;
          for (int s = 0; s < QUERIES; s++) {
            float[] q = DATA.query(s);
            long[] truth = DATA.truth(q, 10, r -> true);
            Neighbors j = javelin(ds, q, 10, nprobes, ef, null);
            Neighbors l = lance(lance, q, 10, nprobes, ef, null);
            // The same code distances for the rows both return (the nearest always is one).
            assertThat(j.rowIds()[0]).isEqualTo(l.rowIds()[0]);
            for (int a = 0; a < j.size(); a++) {
              for (int b = 0; b < l.size(); b++) {
                if (j.rowIds()[a] == l.rowIds()[b]) {
                  assertThat(j.distances()[a]).isEqualTo(l.distances()[b]);
                }
              }
            }
            jr += VectorCompatData.recall(j.rowIds(), truth);
            lr += VectorCompatData.recall(l.rowIds(), truth);
          }
          System.out.printf("IVF_HNSW_SQ recall@10 at nprobes %d, ef %d: javelin %.3f, lance-core %.3f%n", nprobes,
              ef, jr / QUERIES, lr / QUERIES);
          // Not always the very same rows: at a narrow ef lance-core 7.0.0's walk stops earlier than
          // its 2025-11 sources (which Javelin follows) say; Javelin's recall is never lower.
          assertThat(jr / QUERIES).isGreaterThanOrEqualTo(lr / QUERIES - 0.01);
          if (ef >= 40) {
            assertThat(jr / QUERIES).isCloseTo(lr / QUERIES, within(0.02));
          }
        }
      }
      // Wide and re-ranked: the exact answer on both sides.
      for (int s = 0; s < 5; s++) {
        float[] q = DATA.query(s);
        long[] truth = DATA.truth(q, 10, r -> true);
        assertThat(javelin(ds, q, 10, PARTITIONS, 300, 30).rowIds()).containsExactly(truth);
        assertThat(lance(lance, q, 10, PARTITIONS, 300, 30).rowIds()).containsExactly(truth);
      }
    }
  }

  @Test
  void selectivePrefilterSearchesPartitionsFlatOnBothSides() throws Exception {
    Path path = dir.resolve("ds");
    DATA.lanceWrite(allocator, path, 0, ROWS, 1000, false);
    IvfBuildParams ivf = new IvfBuildParams.Builder().setNumPartitions(PARTITIONS).setMaxIters(20).build();
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      lance.createIndex(List.of("v"), org.lance.index.IndexType.IVF_HNSW_SQ, Optional.of("v_idx"),
          IndexParams.builder().setVectorIndexParams(VectorIndexParams.withIvfHnswSqParams(DistanceType.L2, ivf,
              new HnswBuildParams.Builder().build(), new SQBuildParams.Builder().build())).build(), false);
    }
    Dataset ds = Dataset.open(path, allocator);
    // 150 of 3000 rows pass (ids are independent of the vectors): well below a tenth of each
    // partition, so both rank every passing row of the probed partitions by its SQ code, even at
    // the narrowest ef: the same rows at the same distances, and the recall of the codes.
    String filter = "id < 150";
    double jr = 0;
    double lr = 0;
    for (int s = 0; s < QUERIES; s++) {
      float[] q = DATA.query(s);
      long[] truth = DATA.truth(q, 10, r -> r < 150);
      Neighbors j = VectorCompatData.javelinNearest(ds.nearest("v", q).k(10).nprobes(PARTITIONS)
          .maximumNprobes(PARTITIONS).ef(10).filter(filter).prefilter(true));
      Neighbors l;
      try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
        l = VectorCompatData.lanceNearest(lance, new Query.Builder().setColumn("v").setKey(q).setK(10)
            .setNprobes(PARTITIONS).setEf(10).build(), filter, true, null);
      }
      assertThat(j.rowIds()).containsExactly(l.rowIds());
      assertThat(j.distances()).containsExactly(l.distances());
      jr += VectorCompatData.recall(j.rowIds(), truth);
      lr += VectorCompatData.recall(l.rowIds(), truth);
    }
    System.out.printf("IVF_HNSW_SQ recall@10 with a 5%% prefilter at ef 10: javelin %.3f, lance-core %.3f%n",
        jr / QUERIES, lr / QUERIES);
    assertThat(jr / QUERIES).isEqualTo(lr / QUERIES);
    assertThat(jr / QUERIES).isGreaterThanOrEqualTo(0.9);
  }

  @Test
  void buildParametersAreRecordedAsLanceCoreRecordsThem() throws Exception {
    Path javelins = dir.resolve("javelin");
    Path lances = dir.resolve("lance");
    DATA.lanceWrite(allocator, javelins, 0, 1000, 1000, false);
    DATA.lanceWrite(allocator, lances, 0, 1000, 1000, false);
    // Not lance-core's defaults (m 20, ef_construction 150), so that each number is seen in its place.
    Dataset ds = Dataset.open(javelins, allocator).createIndex("v")
        .ivfHnswSq(dev.javelin.index.IvfParams.of(2, dev.javelin.index.DistanceType.L2), 12, 90).commit().dataset();
    IvfBuildParams ivf = new IvfBuildParams.Builder().setNumPartitions(2).build();
    try (org.lance.Dataset lance = org.lance.Dataset.open(lances.toString(), allocator)) {
      lance.createIndex(List.of("v"), org.lance.index.IndexType.IVF_HNSW_SQ, Optional.of("v_idx"),
          IndexParams.builder().setVectorIndexParams(VectorIndexParams.withIvfHnswSqParams(DistanceType.L2, ivf,
              new HnswBuildParams.Builder().setM(12).setEfConstruction(90).build(),
              new SQBuildParams.Builder().build())).build(), false);
    }
    Dataset theirsDs = Dataset.open(lances, allocator);
    IndexProtos.VectorIndexDetails mine = IvfFlatSqCompatTest.details(ds);
    IndexProtos.VectorIndexDetails theirs = IvfFlatSqCompatTest.details(theirsDs);
    // The manifest's details: the same message, field by field (no field Javelin does not know of).
    assertThat(theirs.getUnknownFields().asMap()).as(theirs.toString()).isEmpty();
    assertThat(theirs.getHnsw()).isEqualTo(IndexProtos.VectorIndexDetails.Hnsw.newBuilder().setM(12)
        .setEfConstruction(90).setMaxLevel(7).build());
    assertThat(mine).isEqualTo(theirs);
    // index.idx: each partition's graph document records the same parameters.
    for (Dataset d : List.of(ds, theirsDs)) {
      Path file = (d == ds ? javelins : lances).resolve("_indices").resolve(d.manifest().indices().get(0).uuid())
          .resolve("index.idx");
      try (dev.javelin.format.LanceFileReader r = dev.javelin.format.LanceFileReader.open(file, allocator)) {
        JsonNode graphs = Json.tree(r.lanceSchema().metadata().get("lance:hnsw"));
        assertThat(graphs.size()).isEqualTo(2);
        for (JsonNode graph : graphs) {
          assertThat(Json.tree(graph.asText()).get("params")).as(file.toString())
              .isEqualTo(Json.tree("{\"max_level\":7,\"m\":12,\"ef_construction\":90,\"prefetch_distance\":2}"));
        }
      }
    }
  }

  /** Recall@10 over the queries at these settings, by lance-core or (lance null) by Javelin. */
  private double recall(org.lance.Dataset lance, Dataset ds, int rows, int nprobes, int ef) throws Exception {
    double sum = 0;
    for (int s = 0; s < QUERIES; s++) {
      float[] q = DATA.query(s);
      long[] truth = DATA.truth(q, 10, r -> r < rows);
      sum += VectorCompatData.recall((lance != null ? lance(lance, q, 10, nprobes, ef, null)
          : javelin(ds, q, 10, nprobes, ef, null)).rowIds(), truth);
    }
    return sum / QUERIES;
  }

  @Test
  void lanceSearchesAndOptimizesTheGraphsJavelinBuilt() throws Exception {
    int first = 2000;
    int second = 2500;
    Path javelins = dir.resolve("javelin");
    Path lances = dir.resolve("lance");
    DATA.lanceWrite(allocator, javelins, 0, first, 1000, false);
    DATA.lanceWrite(allocator, lances, 0, first, 1000, false);
    Dataset ds = Dataset.open(javelins, allocator).createIndex("v")
        .ivfHnswSq(dev.javelin.index.IvfParams.of(PARTITIONS, dev.javelin.index.DistanceType.L2), 20, 150)
        .commit().dataset();
    IvfBuildParams ivf = new IvfBuildParams.Builder().setNumPartitions(PARTITIONS).setMaxIters(20).build();
    try (org.lance.Dataset lance = org.lance.Dataset.open(lances.toString(), allocator)) {
      lance.createIndex(List.of("v"), org.lance.index.IndexType.IVF_HNSW_SQ, Optional.of("v_idx"),
          IndexParams.builder().setVectorIndexParams(VectorIndexParams.withIvfHnswSqParams(DistanceType.L2, ivf,
              new HnswBuildParams.Builder().build(), new SQBuildParams.Builder().build())).build(), false);
    }
    assertThat(ds.nearest("v", DATA.query(0)).k(10).explain().index().kind()).isEqualTo("IVF_HNSW_SQ");
    try (org.lance.Dataset lance = org.lance.Dataset.open(javelins.toString(), allocator);
        org.lance.Dataset own = org.lance.Dataset.open(lances.toString(), allocator)) {
      assertThat(lance.listIndexes()).containsExactly("v_idx");
      assertThat(lance.getIndexStatistics("v_idx").get("index_type")).isEqualTo("IVF_HNSW_SQ");
      double onJavelins = recall(lance, null, first, PARTITIONS, 40);
      double onOwn = recall(own, null, first, PARTITIONS, 40);
      double javelinOnJavelins = recall(null, ds, first, PARTITIONS, 40);
      System.out.printf("IVF_HNSW_SQ recall@10 at ef 40: lance-core on Javelin's graphs %.3f, on its own %.3f; "
          + "Javelin on its graphs %.3f%n", onJavelins, onOwn, javelinOnJavelins);
      assertThat(onJavelins).isCloseTo(onOwn, within(0.03));
      assertThat(javelinOnJavelins).isGreaterThanOrEqualTo(onJavelins - 0.01);
      for (int s = 0; s < 5; s++) {
        float[] q = DATA.query(s);
        long[] truth = DATA.truth(q, 10, r -> r < first);
        assertThat(lance(lance, q, 10, PARTITIONS, 300, 30).rowIds()).containsExactly(truth);
        assertThat(javelin(ds, q, 10, PARTITIONS, 300, 30).rowIds()).containsExactly(truth);
      }
    }
    // Appended rows: Javelin's optimize puts them into the partitions and rebuilds their graphs;
    // lance-core then counts everything indexed and finds the new rows through the graphs.
    DATA.lanceWrite(allocator, javelins, first, second, 1000, false);
    dev.javelin.core.IndexOptimizeResult r = Dataset.open(javelins, allocator).optimizeIndices();
    assertThat(r.indices()).extracting(dev.javelin.core.OptimizedIndex::outcome)
        .containsExactly(dev.javelin.core.OptimizedIndex.Outcome.MERGED);
    ds = r.dataset();
    try (org.lance.Dataset lance = org.lance.Dataset.open(javelins.toString(), allocator)) {
      java.util.Map<String, Object> stats = lance.getIndexStatistics("v_idx");
      assertThat(((Number) stats.get("num_unindexed_rows")).longValue()).as(stats.toString()).isZero();
      assertThat(((Number) stats.get("num_indexed_rows")).longValue()).as(stats.toString()).isEqualTo(second);
      assertThat(recall(lance, null, second, PARTITIONS, 40)).isGreaterThanOrEqualTo(0.9);
      assertThat(recall(null, ds, second, PARTITIONS, 40)).isGreaterThanOrEqualTo(0.9);
      for (int s = 0; s < 5; s++) {
        float[] q = DATA.query(s);
        long[] truth = DATA.truth(q, 10, x -> x < second);
        assertThat(lance(lance, q, 10, PARTITIONS, 300, 30).rowIds()).containsExactly(truth);
      }
    }
    // And lance-core optimizes Javelin's index in turn.
    DATA.lanceWrite(allocator, javelins, second, ROWS, 1000, false);
    try (org.lance.Dataset lance = org.lance.Dataset.open(javelins.toString(), allocator)) {
      lance.optimizeIndices(org.lance.index.OptimizeOptions.builder().build());
    }
    try (org.lance.Dataset lance = org.lance.Dataset.open(javelins.toString(), allocator)) {
      java.util.Map<String, Object> stats = lance.getIndexStatistics("v_idx");
      assertThat(((Number) stats.get("num_unindexed_rows")).longValue()).as(stats.toString()).isZero();
      ds = Dataset.open(javelins, allocator);
      for (int s = 0; s < 5; s++) {
        float[] q = DATA.query(s);
        long[] truth = DATA.truth(q, 10, x -> true);
        assertThat(lance(lance, q, 10, PARTITIONS, 300, 30).rowIds()).containsExactly(truth);
        assertThat(javelin(ds, q, 10, PARTITIONS, 300, 30).rowIds()).containsExactly(truth);
      }
    }
  }
}
