package dev.javelin.core.compaction;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.core.Dataset;
import dev.javelin.core.IndexInfo;
import dev.javelin.core.WriteParams;
import dev.javelin.index.DistanceType;
import dev.javelin.index.IvfPqParams;
import dev.javelin.table.Fragment;
import dev.javelin.testing.TestAllocator;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A fragment rewrite remaps an IVF_PQ index: new uuid, coverage on the new fragments, same answers. */
class VectorIndexRemapTest {
  private static final int DIM = 8;
  private static final int ROWS = 1200;

  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  private Dataset create() {
    Field item = new Field("item", FieldType.nullable(new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)), null);
    Schema schema = new Schema(List.of(Field.nullable("id", new ArrowType.Int(64, true)),
        new Field("v", FieldType.nullable(new ArrowType.FixedSizeList(DIM)), List.of(item))));
    Random r = new Random(7);
    try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
      root.allocateNew();
      BigIntVector id = (BigIntVector) root.getVector("id");
      FixedSizeListVector v = (FixedSizeListVector) root.getVector("v");
      Float4Vector items = (Float4Vector) v.getDataVector();
      for (int i = 0; i < ROWS; i++) {
        id.setSafe(i, i);
        v.setNotNull(i);
        for (int d = 0; d < DIM; d++) {
          items.setSafe(i * DIM + d, r.nextFloat());
        }
      }
      items.setValueCount(ROWS * DIM);
      root.setRowCount(ROWS);
      return Dataset.create(dir.resolve("ds"), List.of(root), WriteParams.builder().maxRowsPerFile(100).build(),
          allocator);
    }
  }

  private static long[] ids(Dataset ds, float[] q, boolean index) {
    return ds.nearest("v", q).k(10).nprobes(4).refineFactor(500).useIndex(index).neighbors().rowIds();
  }

  @Test
  void rewriteRemapsAnIvfPqIndexToTheNewFragments() {
    Dataset ds = create()
        .createIndex("v", IvfPqParams.of(4, 2, DistanceType.L2), "v_idx")
        .delete("id % 7 = 3");
    String oldUuid = ds.indices().get(0).uuid();
    Dataset after = ds.compact(CompactionOptions.builder().targetRowsPerFragment(600).build());
    List<Long> newIds = after.manifest().fragments().stream().map(Fragment::id).toList();
    assertThat(newIds).allSatisfy(id -> assertThat(id).isGreaterThanOrEqualTo(12L));
    IndexInfo info = after.indices().get(0);
    assertThat(info.uuid()).isNotEqualTo(oldUuid);
    assertThat(info.fragments()).containsExactlyInAnyOrderElementsOf(newIds);
    Random r = new Random(3);
    for (int q = 0; q < 5; q++) {
      float[] query = new float[DIM];
      for (int d = 0; d < DIM; d++) {
        query[d] = r.nextFloat();
      }
      // Every partition probed and every row re-ranked: the index must find the exact answer,
      // which it can only do if every remapped row id points at the right row.
      assertThat(ids(after, query, true)).as("query %d", q).containsExactly(ids(after, query, false));
    }
  }
}
