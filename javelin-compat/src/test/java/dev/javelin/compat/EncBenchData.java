package dev.javelin.compat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The benchmark data set of javelin-bench's {@code BenchData} (id int64, score float64, name utf8,
 * vector fixed_size_list&lt;float32,128&gt;), generated the same way; copied so that this module
 * needs no dependency on the benchmarks.
 */
final class EncBenchData {
  static final int DIMENSION = 128;
  static final int BATCH = 65_536;

  private EncBenchData() {}

  static Schema schema() {
    Field item = new Field("item", FieldType.nullable(new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)), null);
    return new Schema(List.of(
        new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
        new Field("score", FieldType.nullable(new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)), null),
        new Field("name", FieldType.nullable(ArrowType.Utf8.INSTANCE), null),
        new Field("vector", FieldType.nullable(new ArrowType.FixedSizeList(DIMENSION)), List.of(item))));
  }

  /** Fills {@code root} (of {@link #schema()}) with rows [first, first + count). */
  static void fill(VectorSchemaRoot root, long first, int count) {
    Random random = new Random(first * 31 + 7);
    root.allocateNew();
    BigIntVector id = (BigIntVector) root.getVector("id");
    Float8Vector score = (Float8Vector) root.getVector("score");
    VarCharVector name = (VarCharVector) root.getVector("name");
    FixedSizeListVector vector = (FixedSizeListVector) root.getVector("vector");
    Float4Vector items = (Float4Vector) vector.getDataVector();
    items.setInitialCapacity(count * DIMENSION);
    items.allocateNew();
    for (int i = 0; i < count; i++) {
      long row = first + i;
      id.setSafe(i, row);
      score.setSafe(i, random.nextGaussian() * 100);
      name.setSafe(i, ("user-" + Long.toString(row * 2654435761L % 1_000_003, 36) + "-" + (row % 97))
          .getBytes(StandardCharsets.UTF_8));
      vector.setNotNull(i);
      for (int d = 0; d < DIMENSION; d++) {
        items.setSafe(i * DIMENSION + d, random.nextFloat());
      }
    }
    items.setValueCount(count * DIMENSION);
    root.setRowCount(count);
  }
}
