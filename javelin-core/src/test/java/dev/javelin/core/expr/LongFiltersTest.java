package dev.javelin.core.expr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.javelin.core.exceptions.ExpressionSyntaxException;
import dev.javelin.core.exceptions.ExpressionTooDeepException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
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

/** Long chains and IN lists stay flat; nesting is limited with a typed error, not a stack overflow. */
class LongFiltersTest {
  static final Schema SCHEMA = new Schema(List.of(
      Field.nullable("id", new ArrowType.Int(64, true)),
      Field.nullable("d", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
      Field.nullable("s", ArrowType.Utf8.INSTANCE),
      Field.nullable("b", ArrowType.Bool.INSTANCE)));
  static final int ROWS = 20_000;
  static final int D = Expression.MAX_DEPTH;
  static final String TOO_DEEP = "the expression is too deeply nested (at most 128 levels of parentheses, NOT, "
      + "signs and operators)";

  RootAllocator allocator;
  VectorSchemaRoot batch;

  @BeforeEach
  void open() {
    allocator = new RootAllocator();
    batch = VectorSchemaRoot.create(SCHEMA, allocator);
    batch.allocateNew();
    BigIntVector id = (BigIntVector) batch.getVector("id");
    Float8Vector d = (Float8Vector) batch.getVector("d");
    VarCharVector s = (VarCharVector) batch.getVector("s");
    BitVector b = (BitVector) batch.getVector("b");
    double[] special = {0.0, -0.0, Double.NaN, 1.5};
    for (int r = 0; r < ROWS; r++) {
      if (r % 97 == 5) {
        id.setNull(r);
        d.setNull(r);
        s.setNull(r);
        b.setNull(r);
        continue;
      }
      id.setSafe(r, r);
      d.setSafe(r, r % 10 == 0 ? special[(r / 10) % special.length] : r * 0.5);
      s.setSafe(r, ("s" + r).getBytes(StandardCharsets.UTF_8));
      b.setSafe(r, r % 3 == 0 ? 1 : 0);
    }
    batch.setRowCount(ROWS);
  }

  @AfterEach
  void close() {
    batch.close();
    allocator.close();
  }

  private List<Integer> select(String sql) {
    List<Integer> out = new ArrayList<>();
    for (int i : Expression.parse(sql).bindFilter(SCHEMA).select(batch)) {
      out.add(i);
    }
    return out;
  }

  private List<Integer> rowsWhere(java.util.function.IntPredicate keep) {
    List<Integer> out = new ArrayList<>();
    for (int r = 0; r < ROWS; r++) {
      if (r % 97 != 5 && keep.test(r)) {
        out.add(r);
      }
    }
    return out;
  }

  private static List<Long> randomValues(int n, long seed) {
    Random rnd = new Random(seed);
    List<Long> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add((long) rnd.nextInt(3 * ROWS) - ROWS);
    }
    return out;
  }

  @Test
  void hundredThousandOrTermsAreOneLookup() {
    List<Long> values = randomValues(100_000, 1);
    StringBuilder sql = new StringBuilder();
    for (long v : values) {
      sql.append(sql.length() == 0 ? "" : " OR ").append("id = ").append(v);
    }
    Set<Long> set = new HashSet<>(values);
    assertThat(select(sql.toString())).isEqualTo(rowsWhere(r -> set.contains((long) r)));
    // Bound as one hash lookup, and shaped as one IN for an index.
    assertThat(Expression.parse(sql.toString()).bindFilter(SCHEMA)).extracting(e -> e.columns()).isEqualTo(List.of("id"));
    FilterShape shape = Expression.parse(sql.toString()).shape();
    assertThat(shape).isInstanceOf(FilterShape.Or.class);
    assertThat(((FilterShape.Or) shape).parts()).singleElement()
        .satisfies(p -> assertThat(((FilterShape.Compare) p).values()).hasSize(100_000));
  }

  @Test
  void hundredThousandValueInListsMatchBruteForce() {
    List<Long> values = randomValues(100_000, 2);
    Set<Long> set = new HashSet<>(values);
    String list = values.stream().map(String::valueOf).reduce((a, b) -> a + "," + b).orElseThrow();
    assertThat(select("id IN (" + list + ")")).isEqualTo(rowsWhere(r -> set.contains((long) r)));
    assertThat(select("id NOT IN (" + list + ")")).isEqualTo(rowsWhere(r -> !set.contains((long) r)));
    // A NULL in the list: a miss is NULL, so NOT IN selects nothing.
    assertThat(select("id NOT IN (" + list + ", NULL)")).isEmpty();
    assertThat(select("id IN (" + list + ", NULL)")).isEqualTo(rowsWhere(r -> set.contains((long) r)));
    // Integers against a double column, and a double list with both zeros and NaN. Floats compare
    // in Arrow's total order, as in Lance: -0.0 is not 0.
    assertThat(select("d IN (" + list + ")")).isEqualTo(rowsWhere(r -> {
      double d = d(r);
      return Double.compare(d, (double) (long) d) == 0 && set.contains((long) d);
    }));
    // A computed item stays a comparison beside the lookup.
    assertThat(select("id IN (" + list + ", id + 0)")).isEqualTo(rowsWhere(r -> true));
    assertThat(select("d IN (-0.0, 7.5, 1.5)"))
        .isEqualTo(rowsWhere(r -> Double.compare(d(r), -0.0) == 0 || d(r) == 7.5 || d(r) == 1.5));
    StringBuilder strings = new StringBuilder();
    Set<String> want = new HashSet<>();
    for (long v : values) {
      strings.append(strings.length() == 0 ? "" : ", ").append("'s").append(v).append("'");
      want.add("s" + v);
    }
    assertThat(select("s IN (" + strings + ")")).isEqualTo(rowsWhere(r -> want.contains("s" + r)));
    assertThat(select("b IN (TRUE, TRUE)")).isEqualTo(rowsWhere(r -> r % 3 == 0));
  }

  private static double d(int r) {
    double[] special = {0.0, -0.0, Double.NaN, 1.5};
    return r % 10 == 0 ? special[(r / 10) % special.length] : r * 0.5;
  }

  @Test
  void tenThousandAndTermsMatchBruteForce() {
    List<Long> values = randomValues(10_000, 3);
    Set<Long> set = new HashSet<>(values);
    StringBuilder sql = new StringBuilder("id < 15000");
    for (int i = 0; i < values.size(); i++) {
      // Inequalities (gathered into one lookup) mixed with other conditions, which stay in order.
      sql.append(" AND ").append(i % 1000 == 0 ? "s != 's" + values.get(i) + "' AND id != " : "id != ")
          .append(values.get(i));
    }
    assertThat(select(sql.toString())).isEqualTo(rowsWhere(r -> r < 15000 && !set.contains((long) r)));
  }

  private static String nested(String open, String inner, String close, int times) {
    return open.repeat(times) + inner + close.repeat(times);
  }

  @Test
  void nestingUpToTheLimitWorksAndOneMoreFailsWithItsPosition() {
    List<Integer> flagged = rowsWhere(r -> r % 3 == 0);
    assertThat(D).isEqualTo(128);
    assertThat(select(nested("(", "b", ")", D))).isEqualTo(flagged);
    assertThat(select(nested("NOT ", "b", "", D))).isEqualTo(flagged);
    assertThat(select(nested("(", "id = 7", ")", D - 1))).containsExactly(7);
    assertThat(select(nested("NOT (", "b", ")", D / 2))).isEqualTo(flagged);

    assertTooDeep(nested("(", "b", ")", D + 1), D + 1);
    assertTooDeep(nested("NOT ", "b", "", D + 1), D * 4 + 1);
    assertTooDeep(nested("(", "id = 7", ")", D), D + 4);
    assertTooDeep(nested("- ", "id", "", D + 1) + " = 1", D * 2 + 1);
    // A left-deep arithmetic chain: each operator is a level.
    assertThat(Expression.parse("id" + " + 1".repeat(D)).bindValue(SCHEMA).isPredicate()).isFalse();
    assertTooDeep("id" + " + 1".repeat(D + 1), 4 + D * 4);
  }

  private static void assertTooDeep(String sql, int position) {
    String shown = sql.length() <= 200 ? "'" + sql + "'"
        : "'" + sql.substring(0, 180) + "...' (" + sql.length() + " characters)";
    assertThatThrownBy(() -> Expression.parse(sql))
        .isInstanceOf(ExpressionTooDeepException.class)
        .isInstanceOf(ExpressionSyntaxException.class)
        .hasMessage("Cannot parse " + shown + " at position " + position + ": " + TOO_DEEP)
        .extracting(e -> ((ExpressionSyntaxException) e).position()).isEqualTo(position);
  }

  @Test
  void deepInputsNeverOverflowTheStack() {
    // Far past the limit: each fails fast with the typed error, whatever the shape.
    for (String sql : List.of(nested("(", "b", ")", 100_000), nested("NOT ", "b", "", 100_000),
        nested("-", "id", "", 100_000) + " = 1", "id" + " * 2".repeat(100_000) + " = 1",
        nested("(id = 1 OR ", "b", ")", 50_000), nested("id IN ((", "1", "))", 20_000))) {
      assertThatThrownBy(() -> Expression.parse(sql)).isInstanceOf(ExpressionTooDeepException.class);
    }
  }

  /**
   * Child JVM entry point with a small thread stack: parses, binds and evaluates the longest and
   * deepest accepted inputs; exits non-zero on any failure.
   */
  public static void main(String[] args) {
    LongFiltersTest t = new LongFiltersTest();
    t.open();
    try {
      t.hundredThousandOrTermsAreOneLookup();
      t.hundredThousandValueInListsMatchBruteForce();
      t.tenThousandAndTermsMatchBruteForce();
      t.nestingUpToTheLimitWorksAndOneMoreFailsWithItsPosition();
      t.deepInputsNeverOverflowTheStack();
      // The deepest accepted shapes through every pass (bind, shape, columns, evaluate).
      for (String sql : List.of(nested("(", "b", ")", D), nested("NOT ", "b", "", D),
          nested("(id = 1 OR ", "b", ")", D / 2 - 1), nested("(", "id", ")", D - 2) + " + 1 = 5",
          "id" + " + 1".repeat(D - 2) + " = 300", nested("b IN ((", "b", "))", D / 2 - 1))) {
        Expression e = Expression.parse(sql);
        e.shape();
        e.columns();
        System.out.println(e.bindFilter(SCHEMA).select(t.batch).length);
      }
      System.out.println("ok");
    } finally {
      t.close();
    }
  }

  @Test
  void smallThreadStackIsEnough() throws Exception {
    List<String> cmd = List.of(java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xss256k", "--add-opens=java.base/java.nio=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
        LongFiltersTest.class.getName());
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor()).as(output).isZero();
    assertThat(output).as(output).contains("ok").doesNotContain("StackOverflowError");
  }
}
