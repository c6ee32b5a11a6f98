package dev.javelin.core.expr;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.core.exceptions.ExpressionException;
import dev.javelin.testing.TestAllocator;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.TreeSet;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The shortcuts of the evaluator (a constant operand not expanded, AND/OR skipping rows their
 * left side decides, integer division by a constant in floating point) give what the general
 * paths give, nulls and NaNs included.
 */
class EvalFastPathTest {
  static final Schema SCHEMA = new Schema(List.of(
      Field.nullable("l", new ArrowType.Int(64, true)),
      Field.nullable("d", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
      Field.nullable("s", ArrowType.Utf8.INSTANCE)));
  static final int ROWS = 2000;

  @TestAllocator BufferAllocator allocator;
  VectorSchemaRoot root;

  @BeforeEach
  void setUp() {
    root = VectorSchemaRoot.create(SCHEMA, allocator);
    root.allocateNew();
    Random random = new Random(7);
    BigIntVector l = (BigIntVector) root.getVector("l");
    Float8Vector d = (Float8Vector) root.getVector("d");
    VarCharVector s = (VarCharVector) root.getVector("s");
    double[] specials = {Double.NaN, 0.0, -0.0, 1.5, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY};
    for (int i = 0; i < ROWS; i++) {
      if (random.nextInt(10) != 0) {
        l.setSafe(i, random.nextInt(4) == 0 ? random.nextLong() : random.nextInt(2001) - 1000);
      }
      if (random.nextInt(10) != 0) {
        d.setSafe(i, random.nextInt(8) == 0 ? specials[random.nextInt(specials.length)] : random.nextGaussian() * 3);
      }
      if (random.nextInt(10) != 0) {
        s.setSafe(i, ((random.nextBoolean() ? "ab" : "b") + random.nextInt(100)).getBytes(StandardCharsets.UTF_8));
      }
    }
    root.setRowCount(ROWS);
  }

  @AfterEach
  void tearDown() {
    root.close();
  }

  private TreeSet<Integer> select(String filter) {
    TreeSet<Integer> out = new TreeSet<>();
    for (int i : Expression.parse(filter).bindFilter(SCHEMA).select(root)) {
      out.add(i);
    }
    return out;
  }

  @Test
  void comparisonWithAConstantMatchesTheGeneralPath() {
    String[][] flipped = {{">", "<"}, {">=", "<="}, {"<", ">"}, {"<=", ">="}, {"=", "="}, {"!=", "!="}};
    for (String[] op : flipped) {
      for (String c : new String[] {"1.5", "0", "-0.0", "7"}) {
        assertThat(select("d " + op[0] + " " + c)).as("d %s %s", op[0], c).isEqualTo(select(c + " " + op[1] + " d"));
        assertThat(select("l " + op[0] + " " + c)).as("l %s %s", op[0], c).isEqualTo(select(c + " " + op[1] + " l"));
      }
    }
    assertThat(select("d > 1.5")).isNotEmpty();
  }

  @Test
  void andOrAndNotFollowThreeValuedLogicWhenRowsAreSkipped() {
    List<String> parts = List.of("d > 0.5", "s LIKE 'ab%'", "s > 'b5'", "l % 3 = 1", "s NOT LIKE '%7'", "d IS NULL");
    for (String a : parts) {
      for (String b : parts) {
        TreeSet<Integer> and = select(a);
        and.retainAll(select(b));
        assertThat(select("(" + a + ") AND (" + b + ")")).as("%s AND %s", a, b).isEqualTo(and);
        TreeSet<Integer> or = select(a);
        or.addAll(select(b));
        assertThat(select("(" + a + ") OR (" + b + ")")).as("%s OR %s", a, b).isEqualTo(or);
        // NOT (a AND b) is TRUE exactly where a or b is FALSE.
        TreeSet<Integer> notAnd = select("NOT (" + a + ")");
        notAnd.addAll(select("NOT (" + b + ")"));
        assertThat(select("NOT ((" + a + ") AND (" + b + "))")).as("NOT (%s AND %s)", a, b).isEqualTo(notAnd);
      }
    }
  }

  @Test
  void divisionByAConstantMatchesJavaOperators() {
    Random random = new Random(11);
    long[] x = new long[5000];
    long[] edges = {0, 1, -1, 9, -9, 10, -10, Long.MAX_VALUE, Long.MIN_VALUE, (1L << 52), -(1L << 52),
        (1L << 52) + 1, (1L << 52) - 1, (1L << 53) + 7, -(1L << 53) - 7};
    for (int i = 0; i < x.length; i++) {
      x[i] = i < edges.length ? edges[i] : switch (random.nextInt(3)) {
        case 0 -> random.nextInt();
        case 1 -> random.nextLong() >> random.nextInt(64);
        default -> random.nextLong();
      };
    }
    long[] divisors = {1, -1, 2, 3, 7, 10, -10, 1000, 123456789, -987654321987L, (1L << 52), (1L << 52) + 3,
        Long.MAX_VALUE, Long.MIN_VALUE, 1L << 40};
    long[] r = new long[x.length];
    for (long y : divisors) {
      Eval.Arith.divide(x, y, true, r, x.length);
      for (int i = 0; i < x.length; i++) {
        assertThat(r[i]).as("%d / %d", x[i], y).isEqualTo(x[i] / y);
      }
      Eval.Arith.divide(x, y, false, r, x.length);
      for (int i = 0; i < x.length; i++) {
        assertThat(r[i]).as("%d %% %d", x[i], y).isEqualTo(x[i] % y);
      }
    }
  }

  @Test
  void integerDivisionByAConstantZeroStillFails() {
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> select("l % 0 = 1"))
        .isInstanceOf(ExpressionException.class).hasMessage("Expression 'l % 0 = 1' divides by zero");
  }
  @Test
  void caseMappingOfAnAllAsciiBatchIsJavasCaseMapping() {
    // Every ASCII character (the letters and their neighbours '@', '[', '`', '{' among them) and
    // nulls, in one batch with no other byte, so it is mapped in one pass over its bytes.
    String[] rows = new String[300];
    Random random = new Random(11);
    for (int i = 0; i < rows.length; i++) {
      if (i % 13 == 5) {
        continue; // null
      }
      StringBuilder b = new StringBuilder();
      for (int k = random.nextInt(12); k > 0; k--) {
        b.append((char) random.nextInt(128));
      }
      rows[i] = b.toString();
    }
    Schema schema = new Schema(List.of(Field.nullable("t", ArrowType.Utf8.INSTANCE)));
    try (VectorSchemaRoot ascii = VectorSchemaRoot.create(schema, allocator)) {
      VarCharVector t = (VarCharVector) ascii.getVector("t");
      t.allocateNew();
      for (int i = 0; i < rows.length; i++) {
        if (rows[i] != null) {
          t.setSafe(i, rows[i].getBytes(StandardCharsets.UTF_8));
        }
      }
      ascii.setRowCount(rows.length);
      for (String f : new String[] {"lower", "upper"}) {
        try (VarCharVector mapped = (VarCharVector) Expression.parse(f + "(t)").bindValue(schema)
            .evaluate(ascii, "m", allocator)) {
          for (int i = 0; i < rows.length; i++) {
            String want = rows[i] == null ? null : f.equals("lower") ? rows[i].toLowerCase(Locale.ROOT)
                : rows[i].toUpperCase(Locale.ROOT);
            String got = mapped.isNull(i) ? null : new String(mapped.get(i), StandardCharsets.UTF_8);
            assertThat(got).as("%s row %d", f, i).isEqualTo(want);
          }
        }
      }
    }
  }
}
