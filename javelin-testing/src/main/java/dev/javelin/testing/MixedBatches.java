package dev.javelin.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.complex.impl.UnionListWriter;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Batches of a small mixed schema (int64, double, string, list, struct) whose values are a function
 * of the row number, so a test can rebuild the rows it expects instead of keeping them.
 */
public final class MixedBatches {
  public static final Schema SCHEMA = new Schema(List.of(
      new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
      Field.nullable("x", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
      Field.nullable("s", ArrowType.Utf8.INSTANCE),
      new Field("l", FieldType.nullable(ArrowType.List.INSTANCE),
          List.of(Field.nullable("item", new ArrowType.Int(32, true)))),
      new Field("st", FieldType.nullable(ArrowType.Struct.INSTANCE), List.of(
          Field.nullable("a", new ArrowType.Int(32, true)),
          Field.nullable("b", ArrowType.Utf8.INSTANCE)))));

  private MixedBatches() {}

  /** Rows [start, start + n). */
  public static VectorSchemaRoot batch(BufferAllocator a, long start, int n) {
    VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, a);
    root.allocateNew();
    BigIntVector id = (BigIntVector) root.getVector("id");
    Float8Vector x = (Float8Vector) root.getVector("x");
    VarCharVector s = (VarCharVector) root.getVector("s");
    ListVector l = (ListVector) root.getVector("l");
    StructVector st = (StructVector) root.getVector("st");
    IntVector sa = (IntVector) st.getChild("a");
    VarCharVector sb = (VarCharVector) st.getChild("b");
    UnionListWriter lw = l.getWriter();
    for (int i = 0; i < n; i++) {
      long r = start + i;
      id.setSafe(i, r);
      if (r % 7 == 3) {
        x.setNull(i);
      } else {
        x.setSafe(i, r * 0.5);
      }
      if (r % 5 == 1) {
        s.setNull(i);
      } else {
        s.setSafe(i, ("s" + r + "x".repeat((int) (r % 13))).getBytes(StandardCharsets.UTF_8));
      }
      lw.setPosition(i);
      if (r % 11 == 4) {
        lw.writeNull();
      } else {
        lw.startList();
        for (int k = 0; k < r % 4; k++) {
          lw.integer().writeInt((int) (r + k));
        }
        lw.endList();
      }
      // File format 2.0 does not store struct-level nulls, so nulls are in the children only.
      st.setIndexDefined(i);
      if (r % 9 == 2) {
        sa.setNull(i);
      } else {
        sa.setSafe(i, (int) r * 3);
      }
      sb.setSafe(i, ("b" + r).getBytes(StandardCharsets.UTF_8));
    }
    root.setRowCount(n);
    return root;
  }

  /** Several batches covering [start, start + total). */
  public static List<VectorSchemaRoot> batches(BufferAllocator a, long start, int total, int perBatch) {
    List<VectorSchemaRoot> out = new ArrayList<>();
    for (int done = 0; done < total; done += perBatch) {
      out.add(batch(a, start + done, Math.min(perBatch, total - done)));
    }
    return out;
  }

  /** Every row of a root as a list of Java objects (getObject), for comparisons. */
  public static List<List<Object>> rows(VectorSchemaRoot root) {
    List<List<Object>> out = new ArrayList<>();
    for (int i = 0; i < root.getRowCount(); i++) {
      List<Object> row = new ArrayList<>();
      for (var v : root.getFieldVectors()) {
        Object o = v.getObject(i);
        row.add(o == null ? null : o.toString());
      }
      out.add(row);
    }
    return out;
  }

  /** Asserts equal rows, reporting the first row that differs rather than dumping both lists. */
  public static void assertSameRows(List<List<Object>> got, List<List<Object>> want) {
    for (int i = 0; i < Math.min(got.size(), want.size()); i++) {
      assertThat(got.get(i)).as("row %d", i).isEqualTo(want.get(i));
    }
    assertThat(got.size()).as("row count").isEqualTo(want.size());
  }
}
