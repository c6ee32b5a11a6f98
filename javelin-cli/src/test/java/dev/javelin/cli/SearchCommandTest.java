package dev.javelin.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.core.Dataset;
import dev.javelin.core.WriteParams;
import dev.javelin.index.ivf.DistanceType;
import dev.javelin.index.ivf.IvfPqParams;
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
        ds.createIndex("v", IvfPqParams.of(2, 2, DistanceType.L2), null, false);
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
}
