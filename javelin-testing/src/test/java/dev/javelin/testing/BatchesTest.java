package dev.javelin.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/** The batch builders and generators: the values they promise, and readers over them. */
class BatchesTest {
  @TestAllocator BufferAllocator allocator;

  @Test
  void mixedBatchesAreAFunctionOfTheRowNumber() {
    try (VectorSchemaRoot b = MixedBatches.batch(allocator, 10, 5)) {
      List<List<Object>> rows = MixedBatches.rows(b);
      assertThat(rows).hasSize(5);
      // Row 10: x is null (10 % 7 == 3), s = "s10" + 10 x's, l = [10, 11], st = {a: 30, b: "b10"}.
      assertThat(rows.get(0)).containsExactly("10", null, "s10xxxxxxxxxx", "[10,11]", "{\"a\":30,\"b\":\"b10\"}");
      // Row 12: x = 6.0, an empty list (12 % 4 == 0).
      assertThat(rows.get(2)).containsExactly("12", "6.0", "s12xxxxxxxxxxxx", "[]", "{\"a\":36,\"b\":\"b12\"}");
      // Row 11: s is null (11 % 5 == 1), st.a is null (11 % 9 == 2).
      assertThat(rows.get(1).get(2)).isNull();
      assertThat(rows.get(1).get(4)).isEqualTo("{\"b\":\"b11\"}");
    }
  }

  @Test
  void mixedBatchesSplitARangeAndAReaderReplaysThem() throws Exception {
    List<VectorSchemaRoot> batches = MixedBatches.batches(allocator, 0, 25, 10);
    try {
      assertThat(batches).extracting(VectorSchemaRoot::getRowCount).containsExactly(10, 10, 5);
      List<List<Object>> read = new ArrayList<>();
      try (ArrowReader r = Readers.readerOf(allocator, MixedBatches.SCHEMA, batches)) {
        while (r.loadNextBatch()) {
          read.addAll(MixedBatches.rows(r.getVectorSchemaRoot()));
        }
      }
      List<List<Object>> want = new ArrayList<>();
      try (VectorSchemaRoot all = MixedBatches.batch(allocator, 0, 25)) {
        want.addAll(MixedBatches.rows(all));
      }
      MixedBatches.assertSameRows(read, want);
    } finally {
      batches.forEach(VectorSchemaRoot::close);
    }
  }

  @Test
  void arrowDataWritesTheRowsItGenerates() {
    Schema schema = new Schema(ArrowData.primitives());
    ArrowData.Gen g = new ArrowData.Gen(7);
    List<Object[]> rows = ArrowData.randomRows(schema, 50, g);
    try (VectorSchemaRoot root = ArrowData.root(schema, rows, allocator)) {
      assertThat(root.getRowCount()).isEqualTo(50);
      int bool = schema.getFields().indexOf(schema.findField("bool"));
      for (int i = 0; i < rows.size(); i++) {
        Object want = rows.get(i)[bool];
        assertThat(root.getVector("bool").getObject(i)).isEqualTo(want);
      }
    }
  }

  @Test
  void randomBatchesAreSeededAndReadBackCanonically() {
    Schema schema = RandomBatches.allTypes();
    try (VectorSchemaRoot a = RandomBatches.batch(schema, 40, new Random(3), allocator);
        VectorSchemaRoot b = RandomBatches.batch(schema, 40, new Random(3), allocator)) {
      assertThat(RandomBatches.canon(a)).isEqualTo(RandomBatches.canon(b));
      assertThat(RandomBatches.canon(a)).hasSize(schema.getFields().size());
      assertThat(RandomBatches.canon(a).get(schema.getFields().size() - 1)).containsOnlyNulls();
      assertThat(RandomBatches.vectorSchema(a).getFields()).hasSize(schema.getFields().size());
    }
  }
}
