package dev.javelin.core.expr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.core.exceptions.ExpressionException;
import dev.javelin.core.exceptions.ExpressionTypeException;
import dev.javelin.core.exceptions.UnknownColumnException;
import dev.javelin.testing.TestAllocator;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.UInt1Vector;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ExpressionEvalTest {
  static final Schema SCHEMA = new Schema(List.of(
      Field.nullable("i", new ArrowType.Int(32, true)),
      Field.nullable("l", new ArrowType.Int(64, true)),
      Field.nullable("f", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)),
      Field.nullable("d", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
      Field.nullable("s", ArrowType.Utf8.INSTANCE),
      Field.nullable("ls", ArrowType.LargeUtf8.INSTANCE),
      Field.nullable("b", ArrowType.Bool.INSTANCE),
      Field.nullable("dt", new ArrowType.Date(DateUnit.DAY)),
      Field.nullable("ts", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null)),
      Field.nullable("u", new ArrowType.Int(8, false)),
      new Field("st", FieldType.nullable(ArrowType.Struct.INSTANCE), List.of(
          Field.nullable("a", new ArrowType.Int(32, true)),
          new Field("inner", FieldType.nullable(ArrowType.Struct.INSTANCE), List.of(
              Field.nullable("b", ArrowType.Utf8.INSTANCE))))),
      new Field("lst", FieldType.nullable(ArrowType.List.INSTANCE),
          List.of(Field.nullable("item", new ArrowType.Int(32, true)))),
      Field.nullable("Mixed Case", new ArrowType.Int(32, true))));

  static final Integer[] I = {5, -3, null, 10, 0, 7, null, Integer.MAX_VALUE};
  static final Float[] F = {1.5f, null, -2.0f, 0.1f, 3f, Float.NaN, 2.5f, 0f};
  static final Double[] D = {0.5, 1.5, null, 2.5, -1.0, 100.0, 0.1, 3.0};
  static final String[] S = {"apple", "banana", null, "apricot", "", "é_x", "a%b", "Apple"};
  static final Boolean[] B = {true, false, null, true, false, true, null, false};
  static final Integer[] DT = {0, 19782, null, 19781, 19783, -1, 20000, 19782};
  // 2024-02-29 00:00:00 UTC is 1709164800 s
  static final Long[] TS = {0L, 1709164800_000000L, null, 1709164800_000001L, 1709164799_999999L, -1L, 1L,
      1709251200_000000L};
  static final Integer[] U = {200, 0, 255, null, 1, 128, 127, 3};
  static final Integer[] STA = {1, null, 3, 4, 5, 6, 7, 8}; // st is null at row 3, inner null at row 5
  static final String[] STB = {"x", "y", null, "w", "v", "u", "t", "x"};

  @TestAllocator BufferAllocator allocator;
  VectorSchemaRoot root;

  @BeforeEach
  void setUp() {
    root = VectorSchemaRoot.create(SCHEMA, allocator);
    root.allocateNew();
    int n = 8;
    StructVector st = (StructVector) root.getVector("st");
    IntVector sta = (IntVector) st.getChild("a");
    StructVector inner = (StructVector) st.getChild("inner");
    VarCharVector stb = (VarCharVector) inner.getChild("b");
    UnionListWriter lw = ((ListVector) root.getVector("lst")).getWriter();
    for (int r = 0; r < n; r++) {
      set((IntVector) root.getVector("i"), r, I[r]);
      ((BigIntVector) root.getVector("l")).setSafe(r, r + 1);
      if (F[r] != null) {
        ((Float4Vector) root.getVector("f")).setSafe(r, F[r]);
      }
      if (D[r] != null) {
        ((Float8Vector) root.getVector("d")).setSafe(r, D[r]);
      }
      if (S[r] != null) {
        ((VarCharVector) root.getVector("s")).setSafe(r, S[r].getBytes(StandardCharsets.UTF_8));
        ((LargeVarCharVector) root.getVector("ls")).setSafe(r, S[r].getBytes(StandardCharsets.UTF_8));
      }
      if (B[r] != null) {
        ((BitVector) root.getVector("b")).setSafe(r, B[r] ? 1 : 0);
      }
      if (DT[r] != null) {
        ((DateDayVector) root.getVector("dt")).setSafe(r, DT[r]);
      }
      if (TS[r] != null) {
        ((TimeStampMicroVector) root.getVector("ts")).setSafe(r, TS[r]);
      }
      if (U[r] != null) {
        ((UInt1Vector) root.getVector("u")).setSafe(r, U[r]);
      }
      if (r != 3) {
        st.setIndexDefined(r);
        if (r != 5) {
          inner.setIndexDefined(r);
        }
      }
      set(sta, r, STA[r]);
      if (STB[r] != null) {
        stb.setSafe(r, STB[r].getBytes(StandardCharsets.UTF_8));
      }
      lw.setPosition(r);
      if (r == 1) {
        lw.writeNull();
      } else {
        lw.startList();
        lw.integer().writeInt(r);
        lw.endList();
      }
      set((IntVector) root.getVector("Mixed Case"), r, r);
    }
    root.setRowCount(n);
  }

  private static void set(IntVector v, int r, Integer x) {
    if (x != null) {
      v.setSafe(r, x);
    }
  }

  @AfterEach
  void tearDown() {
    root.close();
  }

  private String select(String sql) {
    int[] rows = Expression.parse(sql).bindFilter(SCHEMA).select(root);
    StringBuilder sb = new StringBuilder();
    for (int r : rows) {
      sb.append(sb.length() == 0 ? "" : " ").append(r);
    }
    return sb.toString();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', nullValues = "none", value = {
      // integers; nulls never pass a comparison, nor its negation
      "i > 0                         | 0 3 5 7",
      "NOT i > 0                     | 1 4",
      "i = 5 OR i != 5               | 0 1 3 4 5 7",
      "i >= 2147483647               | 7",
      "i <> 0 AND l < 4              | 0 1",
      "l BETWEEN 3 AND 5             | 2 3 4",
      "l NOT BETWEEN 3 AND 5         | 0 1 5 6 7",
      "i IN (5, 7, NULL)             | 0 5",
      "i NOT IN (5, 7)               | 1 3 4 7",
      "i NOT IN (5, NULL)            | none",
      "u > 127                       | 0 2 5",
      "u = 255                       | 2",
      // floats, mixed with integers
      "f > 1                         | 0 4 5 6",
      "f = 0.1                       | none",
      "d = 0.1                       | 6",
      "d > i                         | 1 5",
      "d < 1.5                       | 0 4 6",
      "f <= 0                        | 2 7",
      "l * 2 > d + 10                | 4 6 7",
      "l / 2 = 2                     | 3 4",
      "l % 3 = 0                     | 2 5",
      "-l < -7                       | 7",
      "l - 0.5 = 2.5                 | 2",
      // strings, byte order ('A' < 'a'), empty string, unicode, large strings
      "s = 'apple'                   | 0",
      "s > 'apple'                   | 1 3 5",
      "s < 'a'                       | 4 7",
      "s != ''                       | 0 1 3 5 6 7",
      "ls >= 'b'                     | 1 5",
      "s = ls                        | 0 1 3 4 5 6 7",
      "s IN ('banana', 'Apple', 'x') | 1 7",
      "s LIKE 'ap%'                  | 0 3",
      "s NOT LIKE 'ap%'              | 1 4 5 6 7",
      "s LIKE '%an%'                 | 1",
      "s LIKE '_pple'                | 0 7",
      "s LIKE '__x'                  | 5",
      "s LIKE 'é%'                   | 5",
      "s LIKE 'a\\%b'                | 6",
      "s LIKE '%'                    | 0 1 3 4 5 6 7",
      "s LIKE '%p%e'                 | 0 7",
      "s LIKE 'a%b'                  | 6",
      "s LIKE '%a%a%a'               | 1",
      "s LIKE '_'                    | none",
      "s LIKE ''                     | 4",
      "ls LIKE 'a%t'                 | 3",
      "s IS NULL                     | 2",
      "ls IS NOT NULL                | 0 1 3 4 5 6 7",
      // booleans and three-valued logic
      "b                             | 0 3 5",
      "NOT b                         | 1 4 7",
      "b = TRUE                      | 0 3 5",
      "b OR i > 6                    | 0 3 5 7",
      "b IS NULL OR i IS NULL        | 2 6",
      "NOT (b AND i > 6)             | 0 1 4 7",
      "b AND NULL                    | none",
      "NOT b OR NULL                 | 1 4 7",
      "NULL IS NULL                  | 0 1 2 3 4 5 6 7",
      "i = NULL                      | none",
      "TRUE                          | 0 1 2 3 4 5 6 7",
      // dates and timestamps, with literals and strings read as them
      "dt = DATE '2024-02-29'        | 1 7",
      "dt > '2024-02-29'             | 4 6",
      "dt < DATE '1970-01-01'        | 5",
      "ts >= TIMESTAMP '2024-02-29 00:00:00' | 1 3 7",
      "ts < '1970-01-01 00:00:00.000001' | 0 5",
      "ts = '2024-02-29T00:00:00.000001' | 3",
      "ts >= DATE '2024-03-01'       | 7",
      "dt BETWEEN '2024-02-28' AND '2024-03-01' | 1 3 4 7",
      // nested struct fields: a null parent makes its children null
      "st.a > 3                      | 4 5 6 7",
      "st.a IS NULL                  | 1 3",
      "st.inner.b = 'x'              | 0 7",
      "st.inner.b IS NULL            | 2 3 5",
      "st IS NULL                    | 3",
      "st.inner IS NOT NULL          | 0 1 2 4 6 7",
      "`st`.`a` = 1                  | 0",
      "s = \"apple\"                   | 0",
      // lists only answer IS NULL; names fall back to a unique case-insensitive match
      "lst IS NULL                   | 1",
      "`Mixed Case` = 2              | 2",
      "I > 6 AND L < 8               | 3 5",
  })
  void selectsRowsWhereTheFilterIsTrue(String sql, String rows) {
    assertThat(select(sql.trim())).isEqualTo(rows == null ? "" : rows.trim());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "x > 1        | Filter 'x > 1' names column 'x' which the dataset does not have",
      "st.zz = 1    | Filter 'st.zz = 1' names column 'st.zz' which the dataset does not have",
      "i.a = 1      | Filter 'i.a = 1' names column 'i.a' which the dataset does not have",
  })
  void unknownColumns(String sql, String message) {
    assertThatThrownBy(() -> Expression.parse(sql.trim()).bindFilter(SCHEMA))
        .isInstanceOf(UnknownColumnException.class)
        .hasMessage(message.trim())
        .extracting(e -> ((UnknownColumnException) e).column()).isEqualTo(sql.trim().split(" ")[0]);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
      "s > 5                 | Filter 's > 5' cannot compare s (string) with 5 (integer)",
      "i = 'five'            | Filter 'i = 'five'' cannot compare i (integer) with 'five' (string)",
      "b < 1                 | Filter 'b < 1' cannot compare b (boolean) with 1 (integer)",
      "lst = 1               | Filter 'lst = 1' cannot compare lst (List) with 1 (integer)",
      "dt = 'soon'           | Filter 'dt = 'soon'' cannot read 'soon' as a date",
      "s + 1 > 0             | Filter 's + 1 > 0' cannot apply + to s (string) and 1 (integer)",
      "i LIKE 'a%'           | Filter 'i LIKE 'a%'' cannot apply LIKE to i (integer): it needs a string",
      "i AND b               | Filter 'i AND b' needs a condition but i (integer) is not one",
      "NOT s                 | Filter 'NOT s' needs a condition but s (string) is not one",
      "-s = 1                | Filter '-s = 1' cannot negate s (string)",
      "i + 1                 | Filter 'i + 1' is not a condition: it gives integer values",
      "st                    | Filter 'st' is not a condition: it gives Struct values",
      "i IN (1, 'a')         | Filter 'i IN (1, 'a')' cannot compare i (integer) with 'a' (string)",
  })
  void typeErrors(String sql, String message) {
    assertThatThrownBy(() -> Expression.parse(sql.trim()).bindFilter(SCHEMA))
        .isInstanceOf(ExpressionTypeException.class)
        .hasMessage(message.trim());
  }

  @Test
  void valueExpressionsProduceVectors() {
    BoundExpression e = Expression.parse("l * 2 + i").bindValue(SCHEMA);
    assertThat(e.resultType()).isEqualTo(new ArrowType.Int(64, true));
    assertThat(e.columns()).containsExactly("l", "i");
    try (FieldVector v = e.evaluate(root, "y", allocator)) {
      assertThat(v.getField().getName()).isEqualTo("y");
      assertThat(v.getValueCount()).isEqualTo(8);
      assertThat(v.getObject(0)).isEqualTo(7L);
      assertThat(v.isNull(2)).isTrue();
      assertThat(v.getObject(7)).isEqualTo(16L + Integer.MAX_VALUE);
    }
    try (FieldVector v = Expression.parse("d / 2").bindValue(SCHEMA).evaluate(root, "h", allocator)) {
      assertThat(v).isInstanceOf(Float8Vector.class);
      assertThat(v.getObject(0)).isEqualTo(0.25);
      assertThat(v.isNull(2)).isTrue();
    }
    try (FieldVector v = Expression.parse("s").bindValue(SCHEMA).evaluate(root, "c", allocator)) {
      assertThat(v.getObject(5).toString()).isEqualTo("é_x");
      assertThat(v.isNull(2)).isTrue();
    }
    try (FieldVector v = Expression.parse("i > 0").bindValue(SCHEMA).evaluate(root, "p", allocator)) {
      assertThat(v.getObject(0)).isEqualTo(true);
      assertThat(v.getObject(1)).isEqualTo(false);
      assertThat(v.isNull(2)).isTrue();
    }
    try (FieldVector v = Expression.parse("dt").bindValue(SCHEMA).evaluate(root, "p", allocator)) {
      assertThat(v).isInstanceOf(DateDayVector.class);
      assertThat(((DateDayVector) v).get(1)).isEqualTo(19782);
    }
    try (FieldVector v = Expression.parse("ts").bindValue(SCHEMA).evaluate(root, "p", allocator)) {
      assertThat(v.getField().getType()).isEqualTo(new ArrowType.Timestamp(TimeUnit.NANOSECOND, null));
      assertThat(((org.apache.arrow.vector.TimeStampNanoVector) v).get(3)).isEqualTo(1709164800_000001_000L);
    }
  }

  @Test
  void integerDivisionByZeroFailsOnlyOnNonNullRows() {
    try (FieldVector v = Expression.parse("l / (i - i)").bindValue(SCHEMA).evaluate(root, "q", allocator)) {
      throw new AssertionError("expected a failure, got " + v);
    } catch (ExpressionException e) {
      assertThat(e).hasMessage("Expression 'l / (i - i)' divides by zero");
    }
    // i is null in rows 2 and 6 only, so this divides by i only where it is not zero... or null
    assertThat(select("i != 0 AND l / 1 > 0")).isEqualTo("0 1 3 5 7");
  }

  @Test
  void valueExpressionOfAnUnsupportedType() {
    assertThatThrownBy(() -> Expression.parse("lst").bindValue(SCHEMA))
        .isInstanceOf(ExpressionTypeException.class)
        .hasMessage("Expression 'lst' gives values of type List which expressions cannot compute");
    assertThatThrownBy(() -> Expression.parse("y + 1").bindValue(SCHEMA))
        .isInstanceOf(UnknownColumnException.class)
        .hasMessage("Expression 'y + 1' names column 'y' which the dataset does not have");
  }

  @Test
  void selectRefusesValueExpressions() {
    BoundExpression e = Expression.parse("l + 1").bindValue(SCHEMA);
    assertThat(e.isPredicate()).isFalse();
    assertThatThrownBy(() -> e.select(root)).isInstanceOf(IllegalStateException.class)
        .hasMessage("'l + 1' is not a condition");
  }

  private FieldVector store(String sql, Field target) {
    return Expression.parse(sql).bindValue(SCHEMA).evaluate(root, target, allocator);
  }

  @Test
  void valuesAreStoredInTheTargetColumnsType() {
    try (FieldVector v = store("i - 1", Field.nullable("i", new ArrowType.Int(32, true)))) {
      assertThat(v).isInstanceOf(IntVector.class);
      assertThat(v.getObject(0)).isEqualTo(4);
      assertThat(v.isNull(2)).isTrue();
    }
    // row 7 holds Integer.MAX_VALUE
    assertThatThrownBy(() -> store("i + 1", Field.nullable("i", new ArrowType.Int(32, true))))
        .isInstanceOf(ExpressionException.class)
        .hasMessage("Expression 'i + 1' gives 2147483648 which does not fit column 'i' (Int(32, true))");
    try (FieldVector v = store("l * 10", Field.nullable("t", new ArrowType.Int(8, true)))) {
      assertThat(v.getObject(7)).isEqualTo((byte) 80);
    }
    assertThatThrownBy(() -> store("l * 100", Field.nullable("t", new ArrowType.Int(8, true))))
        .isInstanceOf(ExpressionException.class)
        .hasMessage("Expression 'l * 100' gives 200 which does not fit column 't' (Int(8, true))");
    assertThatThrownBy(() -> store("-l", Field.nullable("u", new ArrowType.Int(16, false))))
        .hasMessage("Expression '-l' gives -1 which does not fit column 'u' (Int(16, false))");
    try (FieldVector v = store("l / 2", Field.nullable("f", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)))) {
      assertThat(v.getObject(2)).isEqualTo(1.0f);
    }
    try (FieldVector v = store("s", Field.nullable("ls", ArrowType.LargeUtf8.INSTANCE))) {
      assertThat(v.getObject(5).toString()).isEqualTo("é_x");
      assertThat(v.isNull(2)).isTrue();
    }
    try (FieldVector v = store("dt", Field.nullable("d", new ArrowType.Date(DateUnit.MILLISECOND)))) {
      assertThat(((org.apache.arrow.vector.DateMilliVector) v).get(1)).isEqualTo(19782L * 86_400_000L);
    }
    try (FieldVector v = store("ts", Field.nullable("t", new ArrowType.Timestamp(TimeUnit.MILLISECOND, "UTC")))) {
      assertThat(((org.apache.arrow.vector.TimeStampMilliTZVector) v).get(3)).isEqualTo(1709164800_000L);
      assertThat(((org.apache.arrow.vector.TimeStampMilliTZVector) v).get(5)).isEqualTo(-1L);
    }
    try (FieldVector v = store("NULL", SCHEMA.findField("lst"))) {
      assertThat(v.getValueCount()).isEqualTo(8);
      assertThat(v.isNull(0)).isTrue();
      assertThat(v.getNullCount()).isEqualTo(8);
    }
    try (FieldVector v = store("i > 0", Field.nullable("b", ArrowType.Bool.INSTANCE))) {
      assertThat(v.getObject(0)).isEqualTo(true);
      assertThat(v.isNull(2)).isTrue();
    }
    assertThatThrownBy(() -> store("d * 2", Field.nullable("i", new ArrowType.Int(32, true))))
        .isInstanceOf(ExpressionTypeException.class)
        .hasMessage("Expression 'd * 2' gives float values which cannot be stored in column 'i' (Int(32, true))");
    assertThatThrownBy(() -> store("s", Field.nullable("i", new ArrowType.Int(32, true))))
        .isInstanceOf(ExpressionTypeException.class)
        .hasMessage("Expression 's' gives string values which cannot be stored in column 'i' (Int(32, true))");
  }
}
