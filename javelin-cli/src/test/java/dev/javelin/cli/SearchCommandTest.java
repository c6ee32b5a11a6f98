package dev.javelin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.core.Dataset;
import dev.javelin.core.WriteParams;
import dev.javelin.index.DistanceType;
import dev.javelin.index.IvfPqParams;
import java.nio.file.Path;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

class SearchCommandTest extends CliTestBase {
  /** 300 rows: id i, v = (i, 0, 0, 0); optionally an IVF_PQ index on v. */
  private String create(boolean index) {
    Schema schema = new Schema(List.of(
        new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
        new Field("v", FieldType.nullable(new ArrowType.FixedSizeList(4)), List.of(
            new Field("item", FieldType.nullable(new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)), null)))));
    try (BufferAllocator a = new RootAllocator(); VectorSchemaRoot root = VectorSchemaRoot.create(schema, a)) {
      root.allocateNew();
      FixedSizeListVector v = (FixedSizeListVector) root.getVector("v");
      Float4Vector f = (Float4Vector) v.getDataVector();
      for (int i = 0; i < 300; i++) {
        ((BigIntVector) root.getVector("id")).setSafe(i, i);
        v.setNotNull(i);
        for (int j = 0; j < 4; j++) {
          f.setSafe(i * 4 + j, j == 0 ? i : 0);
        }
      }
      root.setRowCount(300);
      Dataset ds = Dataset.create(Path.of(path("ds")), List.of(root), WriteParams.defaults(), a);
      if (index) {
        ds.createIndex("v", IvfPqParams.of(2, 2, DistanceType.L2));
      }
    }
    return path("ds");
  }

  @Test
  void exactSearchPrintsNearestRows() {
    String ds = create(false);
    Result r = run("search", ds, "--column", "v", "--vector", "3,0,0,1", "--k", "3", "--columns", "id",
        "--format", "csv");
    assertThat(r.code).as(r.toString()).isZero();
    assertThat(r.out).isEqualTo("id,_distance\n3,1.0\n2,2.0\n4,2.0\n");
    assertThat(r.err).isEqualTo("(3 rows)\n");
  }

  @Test
  void indexedSearchWithRefineAndFilter() {
    String ds = create(true);
    Result r = run("search", ds, "--column", "v", "--vector", "3,0,0,1", "--k", "3", "--columns", "id",
        "--nprobes", "2", "--refine-factor", "100", "--filter", "id > 3", "--prefilter", "--format", "csv");
    assertThat(r.code).as(r.toString()).isZero();
    assertThat(r.out).isEqualTo("id,_distance\n4,2.0\n5,5.0\n6,10.0\n");
  }

  @Test
  void wrongDimensionIsAUserError() {
    String ds = create(false);
    Result r = run("search", ds, "--column", "v", "--vector", "1,2");
    assertThat(r.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(r.err).contains("Query vector has 2 dimensions but column 'v' has 4");
  }

  @Test
  void indexCreateBuildsIvfPqThatSearchUses() {
    String ds = create(false);
    Result c = run("index", "create", ds, "--column", "v", "--type", "ivf_pq", "--partitions", "2",
        "--sub-vectors", "2", "--metric", "l2");
    assertThat(c.code).as(c.toString()).isZero();
    assertThat(c.err).isEqualTo("Created index v_idx (ivf_pq on v, 1 fragment): version 2\n");
    Result r = run("search", ds, "--column", "v", "--vector", "3,0,0,1", "--k", "3", "--columns", "id",
        "--nprobes", "2", "--refine-factor", "100", "--format", "csv");
    assertThat(r.out).isEqualTo("id,_distance\n3,1.0\n2,2.0\n4,2.0\n");
    Result bad = run("index", "create", ds, "--column", "id", "--type", "ivf_pq", "--name", "x");
    assertThat(bad.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(bad.err).isEqualTo("javelin: Column 'id' is int64, not a fixed_size_list<float32> vector: an ivf_pq "
        + "index needs vectors\n");
    Result metric = run("index", "create", ds, "--column", "v", "--type", "ivf_pq", "--metric", "manhattan");
    assertThat(metric.err).isEqualTo("javelin: Unknown --metric 'manhattan': use l2, cosine or dot\n");
  }

  @Test
  void indexCreateBuildsIvfFlatAndIvfSqThatSearchUses() {
    String ds = create(false);
    Result flat = run("index", "create", ds, "--column", "v", "--type", "ivf_flat", "--partitions", "2",
        "--name", "flat");
    assertThat(flat.code).as(flat.toString()).isZero();
    assertThat(flat.err).isEqualTo("Created index flat (ivf_flat on v, 1 fragment): version 2\n");
    // Exact within the probed partitions: true distances without a refine factor.
    Result r = run("search", ds, "--column", "v", "--vector", "3,0,0,1", "--k", "3", "--columns", "id",
        "--nprobes", "2", "--explain", "--format", "csv");
    assertThat(r.out).isEqualTo("id,_distance\n3,1.0\n2,2.0\n4,2.0\n");
    assertThat(r.err).contains("index: flat (IVF_FLAT, 2 partitions) for fragments 0: probes 2 partitions\n")
        .contains("distances: exact\n").doesNotContain("note: _distance is approximate");
    assertThat(run("index", "drop", ds, "flat").code).isZero();
    Result sq = run("index", "create", ds, "--column", "v", "--type", "IVF_SQ", "--partitions", "2",
        "--metric", "l2");
    assertThat(sq.code).as(sq.toString()).isZero();
    assertThat(sq.err).isEqualTo("Created index v_idx (ivf_sq on v, 1 fragment): version 4\n");
    Result approx = run("search", ds, "--column", "v", "--vector", "3,0,0,1", "--k", "3", "--columns", "id",
        "--nprobes", "2", "--format", "csv");
    assertThat(approx.err).contains("note: _distance is approximate (IVF_SQ codes); --refine-factor gives true "
        + "distances\n");
    Result refined = run("search", ds, "--column", "v", "--vector", "3,0,0,1", "--k", "3", "--columns", "id",
        "--nprobes", "2", "--refine-factor", "100", "--format", "csv");
    assertThat(refined.out).isEqualTo("id,_distance\n3,1.0\n2,2.0\n4,2.0\n");
    Result subVectors = run("index", "create", ds, "--column", "v", "--type", "ivf_flat", "--sub-vectors", "2");
    assertThat(subVectors.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(subVectors.err).isEqualTo("javelin: --sub-vectors applies to --type ivf_pq only\n");
  }

  @Test
  void indexCreateBuildsIvfHnswSqThatSearchUsesWithEf() {
    String ds = create(false);
    Result c = run("index", "create", ds, "--column", "v", "--type", "ivf_hnsw_sq", "--partitions", "2", "--m", "8",
        "--ef-construction", "40");
    assertThat(c.code).as(c.toString()).isZero();
    assertThat(c.err).isEqualTo("Created index v_idx (ivf_hnsw_sq on v, 1 fragment): version 2\n");
    Result r = run("search", ds, "--column", "v", "--vector", "3,0,0,1", "--k", "3", "--columns", "id",
        "--nprobes", "2", "--ef", "50", "--refine-factor", "10", "--explain", "--format", "csv");
    assertThat(r.code).as(r.toString()).isZero();
    assertThat(r.out).isEqualTo("id,_distance\n3,1.0\n2,2.0\n4,2.0\n");
    assertThat(r.err).contains("index: v_idx (IVF_HNSW_SQ, 2 partitions)");
    Result badEf = run("search", ds, "--column", "v", "--vector", "3,0,0,1", "--ef", "0");
    assertThat(badEf.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(badEf.err).isEqualTo("javelin: --ef must be at least 1, got 0\n");
    // As lance-core: a graph search narrower than the rows asked of the index is refused.
    Result narrow = run("search", ds, "--column", "v", "--vector", "3,0,0,1", "--k", "3", "--ef", "2");
    assertThat(narrow.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(narrow.err).isEqualTo("javelin: ef must be greater than or equal to k (3) for an IVF_HNSW_SQ index, "
        + "got ef 2\n");
    Result refined = run("search", ds, "--column", "v", "--vector", "3,0,0,1", "--k", "3", "--ef", "10",
        "--refine-factor", "4");
    assertThat(refined.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(refined.err).isEqualTo("javelin: ef must be greater than or equal to k times the refine factor "
        + "(3 * 4 = 12) for an IVF_HNSW_SQ index, got ef 10\n");
    Result equal = run("search", ds, "--column", "v", "--vector", "3,0,0,1", "--k", "3", "--ef", "3", "--columns",
        "id", "--nprobes", "2", "--format", "csv");
    assertThat(equal.code).as(equal.toString()).isZero();
    Result badM = run("index", "create", ds, "--column", "v", "--type", "ivf_hnsw_sq", "--m", "1", "--replace");
    assertThat(badM.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(badM.err).isEqualTo("javelin: HNSW needs m >= 2, ef_construction >= 1 and max_level >= 1, got m 1, "
        + "ef_construction 150, max_level 7\n");
    Result notHnsw = run("index", "create", ds, "--column", "v", "--type", "ivf_sq", "--m", "8");
    assertThat(notHnsw.err).isEqualTo("javelin: --m and --ef-construction apply to --type ivf_hnsw_sq only\n");
  }

  @Test
  void prefilterSearchesFurtherPartitionsUpToMaxNprobes() {
    String ds = create(true);
    // The 10 passing rows sit in the partition far from the query; the nearest one holds none.
    Result r = run("search", ds, "--column", "v", "--vector", "290,0,0,0", "--k", "3", "--columns", "id",
        "--nprobes", "1", "--refine-factor", "100", "--filter", "id < 10", "--prefilter", "--format", "csv");
    assertThat(r.code).as(r.toString()).isZero();
    assertThat(r.out).isEqualTo("id,_distance\n9,78961.0\n8,79524.0\n7,80089.0\n");
    Result capped = run("search", ds, "--column", "v", "--vector", "290,0,0,0", "--k", "3", "--columns", "id",
        "--nprobes", "1", "--max-nprobes", "1", "--refine-factor", "100", "--filter", "id < 10", "--prefilter",
        "--format", "csv");
    assertThat(capped.code).as(capped.toString()).isZero();
    assertThat(capped.out).isEqualTo("id,_distance\n");
    Result bad = run("search", ds, "--column", "v", "--vector", "290,0,0,0", "--max-nprobes", "0");
    assertThat(bad.code).isEqualTo(ExitCodes.INVALID_INPUT);
    assertThat(bad.err).contains("--max-nprobes must be at least 1, got 0");
  }

  @Test
  void explainAndApproximateDistanceNote() {
    String ds = create(true);
    Result r = run("search", ds, "--column", "v", "--vector", "3,0,0,1", "--k", "3", "--columns", "id",
        "--explain", "--format", "csv");
    assertThat(r.code).as(r.toString()).isZero();
    assertThat(r.err).isEqualTo("""
        vector search: column v, k 3, l2
        index: v_idx (IVF_PQ, 2 partitions) for fragments 0: probes 2 partitions
        fragments searched exactly: 0
        distances: approximate (PQ codes; a refine factor gives true distances)
        (3 rows)
        note: _distance is approximate (IVF_PQ codes); --refine-factor gives true distances
        """);
    Result refined = run("search", ds, "--column", "v", "--vector", "3,0,0,1", "--k", "3", "--columns", "id",
        "--refine-factor", "100", "--format", "csv");
    assertThat(refined.err).isEqualTo("(3 rows)\n");
    Result exact = run("search", ds, "--column", "v", "--vector", "3,0,0,1", "--k", "3", "--exact", "--explain",
        "--format", "csv");
    assertThat(exact.err).isEqualTo("""
        vector search: column v, k 3, l2
        index: none
        note: indices turned off: every fragment searched exactly
        fragments searched exactly: 1 (0)
        distances: exact
        (3 rows)
        """);
    Result help = run("search", "--help");
    assertThat(help.out).contains("--max-nprobes").contains("approximate (code)", "--refine-factor", "--ef=N");
  }
}
