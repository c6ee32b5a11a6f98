package dev.javelin.core.expr;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.complex.impl.UnionListWriter;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Eight rows with the edge cases functions meet (NULL, NaN, -0.0, empty and non-ASCII strings,
 * empty lists and NULL elements), the same rows lance-core 7.0.0 answered the function tests'
 * filters on.
 */
final class FunctionRows {
  static final Schema SCHEMA = new Schema(List.of(
      new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
      Field.nullable("i", new ArrowType.Int(32, true)),
      Field.nullable("d", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
      Field.nullable("s", ArrowType.Utf8.INSTANCE),
      Field.nullable("dt", new ArrowType.Date(DateUnit.DAY)),
      Field.nullable("ts", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null)),
      new Field("tags", FieldType.nullable(ArrowType.List.INSTANCE),
          List.of(Field.nullable("item", ArrowType.Utf8.INSTANCE))),
      new Field("nums", FieldType.nullable(ArrowType.List.INSTANCE),
          List.of(Field.nullable("item", new ArrowType.Int(64, true)))),
      new Field("st", FieldType.nullable(ArrowType.Struct.INSTANCE), List.of(
          Field.nullable("a", new ArrowType.Int(32, true)), Field.nullable("b", ArrowType.Utf8.INSTANCE)))));

  static final Integer[] I = {5, null, -7, 2147483647, 0, 12, 1, 3};
  static final double[] D = {1.5, Double.NaN, -2.5, 2.5, 0.5, -0.0, 3.7, 1e300};
  static final String[] S = {"Abc", "", null, "héllo wörld", "  pad  ", "12", "2024-01-05", "abc%_x"};
  static final String[][] TAGS = {{"a", "b"}, {}, null, {null, "c"}, {"a"}, {"x", "x"}, {"b"}, {"A"}};
  static final Long[][] NUMS = {{1L, 2L}, {}, null, {null, 3L}, {Long.MAX_VALUE}, {5L}, {7L, 8L, 9L}, {0L}};

  private FunctionRows() {}

  /** dt is 2023-12-09 plus 40 days a row; ts 2024-01-01 00:00:00.123456 plus 7 hours a row. */
  static VectorSchemaRoot create(BufferAllocator allocator) {
    VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator);
    root.allocateNew();
    int n = 8;
    ListVector tv = (ListVector) root.getVector("tags");
    ListVector nv = (ListVector) root.getVector("nums");
    UnionListWriter tw = tv.getWriter();
    UnionListWriter nw = nv.getWriter();
    StructVector st = (StructVector) root.getVector("st");
    for (int k = 0; k < n; k++) {
      ((BigIntVector) root.getVector("id")).setSafe(k, k);
      if (I[k] != null) {
        ((IntVector) root.getVector("i")).setSafe(k, I[k]);
      }
      ((Float8Vector) root.getVector("d")).setSafe(k, D[k]);
      if (S[k] != null) {
        ((VarCharVector) root.getVector("s")).setSafe(k, S[k].getBytes(StandardCharsets.UTF_8));
      }
      ((DateDayVector) root.getVector("dt")).setSafe(k, 19700 + k * 40);
      ((TimeStampMicroVector) root.getVector("ts")).setSafe(k, 1704067200_000000L + k * 3_600_000_000L * 7 + 123456);
      tw.setPosition(k);
      if (TAGS[k] == null) {
        tw.writeNull();
      } else {
        tw.startList();
        for (String t : TAGS[k]) {
          if (t == null) {
            tw.writeNull();
          } else {
            tw.writeVarChar(t);
          }
        }
        tw.endList();
      }
      nw.setPosition(k);
      if (NUMS[k] == null) {
        nw.writeNull();
      } else {
        nw.startList();
        for (Long t : NUMS[k]) {
          if (t == null) {
            nw.writeNull();
          } else {
            nw.bigInt().writeBigInt(t);
          }
        }
        nw.endList();
      }
      st.setIndexDefined(k);
      ((IntVector) st.getChild("a")).setSafe(k, k * 10);
      ((VarCharVector) st.getChild("b")).setSafe(k, ("b" + k).getBytes(StandardCharsets.UTF_8));
    }
    tv.setValueCount(n);
    nv.setValueCount(n);
    root.setRowCount(n);
    return root;
  }

  /** The rows (ascending, space-separated; "none") the filter selects. */
  static String select(VectorSchemaRoot root, String filter) {
    StringBuilder sb = new StringBuilder();
    for (int r : Expression.parse(filter).bindFilter(SCHEMA).select(root)) {
      sb.append(sb.length() == 0 ? "" : " ").append(r);
    }
    return sb.length() == 0 ? "none" : sb.toString();
  }
}
