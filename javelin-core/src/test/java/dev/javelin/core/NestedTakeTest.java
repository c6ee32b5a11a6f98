package dev.javelin.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.testing.MixedBatches;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Takes across fragments return nested values Arrow's own copy cannot handle. */
class NestedTakeTest {
  @TempDir Path dir;

  private static Field field(String name, ArrowType type, Field... kids) {
    return new Field(name, FieldType.nullable(type), List.of(kids));
  }

  private static final Schema SCHEMA = new Schema(List.of(
      field("id", new ArrowType.Int(64, true)),
      field("lf", ArrowType.List.INSTANCE,
          field("item", new ArrowType.FixedSizeList(2), field("item", new ArrowType.Int(32, true)))),
      field("ll", ArrowType.LargeList.INSTANCE,
          field("item", ArrowType.LargeList.INSTANCE, field("item", new ArrowType.Int(32, true))))));

  private static VectorSchemaRoot batch(BufferAllocator a, int first, int n) {
    VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, a);
    root.allocateNew();
    BigIntVector id = (BigIntVector) root.getVector("id");
    ListVector lf = (ListVector) root.getVector("lf");
    FixedSizeListVector fsl = (FixedSizeListVector) lf.getDataVector();
    IntVector fslItems = (IntVector) fsl.getDataVector();
    LargeListVector ll = (LargeListVector) root.getVector("ll");
    LargeListVector inner = (LargeListVector) ll.getDataVector();
    IntVector innerItems = (IntVector) inner.getDataVector();
    int fsls = 0;
    int inners = 0;
    int innerItemCount = 0;
    for (int i = 0; i < n; i++) {
      int r = first + i;
      id.setSafe(i, r);
      if (r % 7 == 6) {
        lf.setNull(i);
      } else {
        lf.startNewValue(i);
        for (int k = 0; k < r % 3; k++) {
          fsl.setNotNull(fsls);
          fslItems.setSafe(fsls * 2, r);
          fslItems.setSafe(fsls * 2 + 1, k);
          fsls++;
        }
        lf.endValue(i, r % 3);
      }
      ll.startNewValue(i);
      int outer = r % 5 == 4 ? 0 : r % 2 + 1;
      for (int k = 0; k < outer; k++) {
        inner.startNewValue(inners);
        innerItems.setSafe(innerItemCount++, r);
        innerItems.setSafe(innerItemCount++, k);
        inner.endValue(inners, 2);
        inners++;
      }
      ll.endValue(i, outer);
    }
    fslItems.setValueCount(fsls * 2);
    fsl.setValueCount(fsls);
    innerItems.setValueCount(innerItemCount);
    inner.setValueCount(inners);
    root.setRowCount(n);
    return root;
  }

  @Test
  void takesNestedListsAcrossFragmentsInAnyOrder() throws Exception {
    try (BufferAllocator a = new RootAllocator()) {
      List<VectorSchemaRoot> batches = List.of(batch(a, 0, 100), batch(a, 100, 100), batch(a, 200, 50));
      Dataset ds;
      try {
        ds = Dataset.create(dir.resolve("ds"), batches, WriteParams.builder().maxRowsPerFile(80).build(), a);
      } finally {
        batches.forEach(VectorSchemaRoot::close);
      }
      List<List<Object>> all = new ArrayList<>();
      try (ArrowReader scan = ds.newScan().build()) {
        while (scan.loadNextBatch()) {
          all.addAll(MixedBatches.rows(scan.getVectorSchemaRoot()));
        }
      }
      assertThat(all).hasSize(250);
      long[] offsets = {249, 3, 170, 3, 0, 81, 160, 249, 42};
      try (VectorSchemaRoot got = ds.take(offsets)) {
        List<List<Object>> rows = MixedBatches.rows(got);
        for (int i = 0; i < offsets.length; i++) {
          assertThat(rows.get(i)).as("offset %d", offsets[i]).isEqualTo(all.get((int) offsets[i]));
        }
      }
    }
  }
}
