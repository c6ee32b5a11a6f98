package dev.javelin.compat;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.core.Dataset;
import dev.javelin.testing.Readers;
import dev.javelin.testing.TestAllocator;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.complex.impl.UnionListWriter;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.ipc.ScanOptions;

/**
 * Random filters (functions, casts, lists, nested fields, NULL logic) over every column type of a
 * dataset lance-core 7.0.0 wrote, answered by Javelin and by lance-core: the same rows in the same
 * order, the same counts, and a failure on one side only where the other fails too.
 */
class FilterDifferentialTest {
  static final long SEED = 20261207L;
  static final int FILTERS = 2500;
  static final int ROWS = 1200;

  static final Schema SCHEMA = new Schema(List.of(
      new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
      Field.nullable("i", new ArrowType.Int(32, true)),
      Field.nullable("l", new ArrowType.Int(64, true)),
      Field.nullable("f", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)),
      Field.nullable("d", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
      Field.nullable("s", ArrowType.Utf8.INSTANCE),
      Field.nullable("flag", ArrowType.Bool.INSTANCE),
      Field.nullable("dt", new ArrowType.Date(DateUnit.DAY)),
      Field.nullable("ts", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null)),
      new Field("st", FieldType.nullable(ArrowType.Struct.INSTANCE), List.of(
          Field.nullable("a", new ArrowType.Int(32, true)),
          Field.nullable("b", ArrowType.Utf8.INSTANCE))),
      new Field("tags", FieldType.nullable(ArrowType.List.INSTANCE),
          List.of(Field.nullable("item", ArrowType.Utf8.INSTANCE))),
      new Field("nums", FieldType.nullable(ArrowType.List.INSTANCE),
          List.of(Field.nullable("item", new ArrowType.Int(64, true))))));

  static final String[] WORDS = {"abc", "Abc", "ab", "xbc", "mno", "zz", "", "é", "ÉA", "a b", " pad ", "12", "a%b"};
  static final String[] TAGS = {"a", "b", "c", "A", "", "x"};

  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  /** Random rows with NULLs everywhere (but no NULL structs), NaN and -0.0, empty strings and lists. */
  static VectorSchemaRoot batch(BufferAllocator a, Random rnd, long start, int n) {
    VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, a);
    root.allocateNew();
    StructVector st = (StructVector) root.getVector("st");
    UnionListWriter tw = ((ListVector) root.getVector("tags")).getWriter();
    UnionListWriter nw = ((ListVector) root.getVector("nums")).getWriter();
    double[] specials = {Double.NaN, -0.0, 0.0, 1.5, -2.5};
    for (int k = 0; k < n; k++) {
      ((BigIntVector) root.getVector("id")).setSafe(k, start + k);
      if (rnd.nextInt(8) != 0) {
        ((IntVector) root.getVector("i")).setSafe(k, rnd.nextInt(61) - 30);
      }
      if (rnd.nextInt(8) != 0) {
        ((BigIntVector) root.getVector("l")).setSafe(k, rnd.nextInt(2001) - 1000);
      }
      if (rnd.nextInt(8) != 0) {
        ((Float4Vector) root.getVector("f")).setSafe(k, (rnd.nextInt(33) - 16) / 16f);
      }
      if (rnd.nextInt(8) != 0) {
        ((Float8Vector) root.getVector("d")).setSafe(k,
            rnd.nextInt(6) == 0 ? specials[rnd.nextInt(specials.length)] : Math.round(rnd.nextGaussian() * 400) / 100.0);
      }
      if (rnd.nextInt(8) != 0) {
        String w = WORDS[rnd.nextInt(WORDS.length)] + (rnd.nextBoolean() ? "" : WORDS[rnd.nextInt(WORDS.length)]);
        ((VarCharVector) root.getVector("s")).setSafe(k, w.getBytes(StandardCharsets.UTF_8));
      }
      if (rnd.nextInt(8) != 0) {
        ((BitVector) root.getVector("flag")).setSafe(k, rnd.nextInt(2));
      }
      if (rnd.nextInt(8) != 0) {
        ((DateDayVector) root.getVector("dt")).setSafe(k, 19700 + rnd.nextInt(500)); // from 2023-12-09
      }
      if (rnd.nextInt(8) != 0) {
        ((TimeStampMicroVector) root.getVector("ts")).setSafe(k,
            1704067200_000000L + rnd.nextInt(40 * 86400) * 1_000_000L + rnd.nextInt(3) * 250_000L);
      }
      st.setIndexDefined(k);
      if (rnd.nextInt(8) != 0) {
        ((IntVector) st.getChild("a")).setSafe(k, rnd.nextInt(100));
      }
      if (rnd.nextInt(8) != 0) {
        ((VarCharVector) st.getChild("b")).setSafe(k, ("x" + rnd.nextInt(5)).getBytes(StandardCharsets.UTF_8));
      }
      tw.setPosition(k);
      if (rnd.nextInt(8) == 0) {
        tw.writeNull();
      } else {
        tw.startList();
        for (int e = rnd.nextInt(4); e > 0; e--) {
          if (rnd.nextInt(10) == 0) {
            tw.writeNull();
          } else {
            tw.writeVarChar(TAGS[rnd.nextInt(TAGS.length)]);
          }
        }
        tw.endList();
      }
      nw.setPosition(k);
      if (rnd.nextInt(8) == 0) {
        nw.writeNull();
      } else {
        nw.startList();
        for (int e = rnd.nextInt(4); e > 0; e--) {
          if (rnd.nextInt(10) == 0) {
            nw.writeNull();
          } else {
            nw.bigInt().writeBigInt(rnd.nextInt(10));
          }
        }
        nw.endList();
      }
    }
    root.getVector("tags").setValueCount(n);
    root.getVector("nums").setValueCount(n);
    root.setRowCount(n);
    return root;
  }

  private void lanceWrite(Path path) throws Exception {
    Random rnd = new Random(SEED);
    List<VectorSchemaRoot> data = new ArrayList<>();
    for (int done = 0; done < ROWS; done += 400) {
      data.add(batch(allocator, rnd, done, Math.min(400, ROWS - done)));
    }
    try (ArrowReader reader = Readers.readerOf(allocator, SCHEMA, data)) {
      org.lance.Dataset.write().allocator(allocator).reader(reader).uri(path.toString())
          .mode(org.lance.WriteParams.WriteMode.CREATE).maxRowsPerFile(500).execute().close();
    } finally {
      data.forEach(VectorSchemaRoot::close);
    }
  }

  @Test
  void randomFiltersSelectWhatLanceCoreSelects() throws Exception {
    Path path = dir.resolve("ds");
    lanceWrite(path);
    Dataset ds = Dataset.open(path, allocator);
    FilterGenerator gen = new FilterGenerator(new Random(SEED));
    int agreedFailures = 0;
    int nonEmpty = 0;
    List<String> disagreements = new ArrayList<>();
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      for (int k = 0; k < FILTERS; k++) {
        String filter = gen.filter();
        Outcome want = Outcome.of(() -> lanceIds(lance, filter));
        Outcome got = Outcome.of(() -> javelinIds(ds, filter));
        if (want.error != null || got.error != null) {
          if (want.error == null || got.error == null) {
            disagreements.add(filter + "\n  lance-core " + want + "\n  Javelin " + got);
          } else {
            agreedFailures++;
          }
          continue;
        }
        if (!got.ids.equals(want.ids)) {
          disagreements.add(filter + "\n  lance-core " + want + ", Javelin " + got + "; only lance-core: "
              + rows(ds, minus(want.ids, got.ids)) + "; only Javelin: " + rows(ds, minus(got.ids, want.ids)));
          continue;
        }
        nonEmpty += want.ids.isEmpty() ? 0 : 1;
        if (k % 10 == 0) {
          assertThat(ds.countRows(filter)).as("count of %s", filter).isEqualTo(want.ids.size());
        }
      }
    }
    assertThat(disagreements).as("%d of %d filters disagree:\n%s", disagreements.size(), FILTERS,
        String.join("\n", disagreements.subList(0, Math.min(40, disagreements.size())))).isEmpty();
    // The generator is meant to produce filters both sides run; most select something.
    assertThat(agreedFailures).isLessThan(FILTERS / 20);
    assertThat(nonEmpty).isGreaterThan(FILTERS / 3);
  }

  /** Filters lance-core 7.0.0 refuses (bad types, unknown names) or fails on (values that do not convert). */
  static final List<String> FAIL_ON_BOTH = List.of(
      "CAST(s AS INT) > 0",
      "s::bigint > 0",
      "CAST(s AS DOUBLE) > 0",
      "CAST(s AS DATE) IS NULL",
      "CAST(s AS TIMESTAMP) IS NULL",
      "CAST(s AS BOOLEAN)",
      "CAST(d AS BIGINT) > 0",
      "CAST(l AS TINYINT) IS NULL",
      "CAST(l * 10000000 AS SMALLINT) IS NULL",
      "CAST('x' AS INT) = i",
      "CAST('2024-13-01' AS DATE) = dt",
      "abs(id * 0 - 9223372036854775807 - 1) > 0",
      "i / 0 > 1",
      "l % 0 = 1",
      "regexp_like(s, '(')",
      "date_part('bogus', ts) = 1",
      "lower(i) = 'x'",
      "upper(tags) = 'x'",
      "array_has(nums, 'x')",
      "array_length(s) = 1",
      "i IS TRUE",
      "d = 'NaN'",
      "no_such_function(i) > 0",
      "CAST(i AS INTERVAL) IS NULL");

  /** Edge cases of each function: NULL arguments, empty strings and lists, NaN, -0.0, out-of-range elements. */
  static final List<String> SAME_ROWS = List.of(
      "TRY_CAST(s AS INT) IS NULL",
      "TRY_CAST(s AS DOUBLE) >= 0",
      "TRY_CAST(s AS DATE) IS NOT NULL",
      "lower(NULL) IS NULL",
      "array_has(tags, NULL) IS NULL",
      "array_has_any(tags, []) IS NULL",
      "array_has_all(tags, []) ",
      "array_has_any(tags, [NULL])",
      "array_has_all(nums, [NULL, 1])",
      "COALESCE(NULL, i) = 3",
      "COALESCE(s, st.b) = 'x1'",
      "NULLIF(s, '') IS NULL",
      // NULL values are skipped (a literal NULL argument trips an internal error in lance-core).
      "concat(s, st.b) = s",
      "concat(st.b, s, st.b) LIKE 'x1%x1'",
      "s || NULL IS NULL",
      "length('') = 0 AND char_length(s) = 0",
      "strpos(s, '') = 1",
      "abs(d) = d",
      "round(d, 0) = round(d)",
      "round(d) = -0.0",
      "d = 0",
      "d < 0",
      "d = -0.0",
      "d > 1e308",
      "CAST(d AS STRING) = 'NaN'",
      "CAST(d AS STRING) = '-0.0'",
      "CAST(d AS STRING) LIKE '%.5'",
      "CAST(f AS STRING) = '0.5'",
      "CAST(dt AS STRING) LIKE '2024-02-%'",
      "CAST(ts AS STRING) LIKE '%.250'",
      "CAST(ts AS DATE) = date '2024-01-15'",
      "CAST(flag AS STRING) = 'true'",
      "CAST(i AS BOOLEAN)",
      "nums[100] IS NULL",
      "tags[0] IS NULL",
      "nums[-2] = 3",
      "cardinality(nums) = 0",
      "array_length(tags) IS NULL",
      "starts_with(s, '')",
      "ends_with(s, '')",
      "upper(s) LIKE '%ÉA%'",
      "lower(s) LIKE '%éa%'",
      "s ILIKE '%éa%'",
      "regexp_like(s, '^$')",
      "regexp_like(s, 'É', 'i')",
      "date_part('dow', dt) = 0",
      "date_part('doy', dt) = 366",
      "date_part('week', ts) = 1",
      "date_trunc('week', ts) = timestamp '2024-01-08 00:00:00'",
      "date_trunc('quarter', dt) = timestamp '2024-04-01 00:00:00'",
      "(i > 0) IS NOT FALSE",
      "(s = 'ab') IS FALSE",
      "i IN (NULL, 3)",
      "i NOT IN (NULL, 3)",
      "st['a'] = st.a",
      "st.b IN (s, 'x1')");

  @Test
  void edgeCasesFailOrAgreeWithLanceCore() throws Exception {
    Path path = dir.resolve("ds");
    lanceWrite(path);
    Dataset ds = Dataset.open(path, allocator);
    List<String> disagreements = new ArrayList<>();
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      for (String filter : FAIL_ON_BOTH) {
        Outcome want = Outcome.of(() -> lanceIds(lance, filter));
        Outcome got = Outcome.of(() -> javelinIds(ds, filter));
        if (want.error == null || got.error == null) {
          disagreements.add(filter + ": lance-core " + want + ", Javelin " + got);
        } else if (!(got.error instanceof dev.javelin.core.exceptions.ExpressionException)) {
          disagreements.add(filter + ": Javelin fails with " + got.error);
        }
      }
      for (String filter : SAME_ROWS) {
        Outcome want = Outcome.of(() -> lanceIds(lance, filter));
        Outcome got = Outcome.of(() -> javelinIds(ds, filter));
        if (want.error != null || got.error != null || !want.ids.equals(got.ids)) {
          disagreements.add(filter + ": lance-core " + want + ", Javelin " + got);
        }
      }
    }
    assertThat(disagreements).as(String.join("\n", disagreements)).isEmpty();
  }

  private static List<Long> minus(List<Long> a, List<Long> b) {
    List<Long> out = new ArrayList<>(a);
    out.removeAll(new java.util.HashSet<>(b));
    return out;
  }

  // Up to three of the given rows, whole, to show why a filter disagrees.
  private static String rows(Dataset ds, List<Long> ids) throws Exception {
    if (ids.isEmpty()) {
      return "[]";
    }
    List<Long> some = ids.subList(0, Math.min(3, ids.size()));
    String in = some.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(", "));
    return ids.size() + " rows, e.g. " + DatasetCompatSupport.readAll(ds.newScan().filter("id IN (" + in + ")").build());
  }

  /** Rows selected (ids in scan order), or the error that stopped the scan. */
  record Outcome(List<Long> ids, Throwable error) {
    static Outcome of(ThrowingSupplier<List<Long>> run) {
      try {
        return new Outcome(run.get(), null);
      } catch (Throwable e) {
        return new Outcome(null, e);
      }
    }

    @Override
    public String toString() {
      return error != null ? "failed: " + error.getMessage() : ids.size() + " rows";
    }
  }

  interface ThrowingSupplier<T> {
    T get() throws Exception;
  }

  private static List<Long> ids(ArrowReader reader) throws Exception {
    List<Long> out = new ArrayList<>();
    try (reader) {
      while (reader.loadNextBatch()) {
        BigIntVector v = (BigIntVector) reader.getVectorSchemaRoot().getVector("id");
        for (int r = 0; r < v.getValueCount(); r++) {
          out.add(v.get(r));
        }
      }
    }
    return out;
  }

  private static List<Long> lanceIds(org.lance.Dataset lance, String filter) throws Exception {
    try (var scanner = lance.newScan(new ScanOptions.Builder().filter(filter).columns(List.of("id")).build())) {
      return ids(scanner.scanBatches());
    }
  }

  private static List<Long> javelinIds(Dataset ds, String filter) throws Exception {
    return ids(ds.newScan().filter(filter).columns("id").batchSize(300).build());
  }

  /**
   * Random well-typed filters from the part of the language both sides share with the same
   * meaning (lance-core 7.0.0 lacks CASE, EXTRACT, substr, trim, floor, ceil and mod; narrowing
   * casts are left out because DataFusion unwraps CAST(x AS TINYINT) > 0 into x > 0).
   */
  static final class FilterGenerator {
    private final Random rnd;

    FilterGenerator(Random rnd) {
      this.rnd = rnd;
    }

    String filter() {
      return bool(3);
    }

    @SafeVarargs
    private <T> T pick(T... options) {
      return options[rnd.nextInt(options.length)];
    }

    private String pickOf(List<Supplier<String>> options) {
      return options.get(rnd.nextInt(options.size())).get();
    }

    private String word() {
      return "'" + WORDS[rnd.nextInt(WORDS.length)].replace("'", "''") + "'";
    }

    private String tag() {
      return "'" + TAGS[rnd.nextInt(TAGS.length)] + "'";
    }

    private String small() {
      return String.valueOf(rnd.nextInt(21) - 10);
    }

    private String date() {
      return "date '" + java.time.LocalDate.ofEpochDay(19700 + rnd.nextInt(500)) + "'";
    }

    private String timestamp() {
      // Seconds always written: lance-core refuses '2024-01-09 17:22'.
      return "timestamp '" + java.time.LocalDateTime.ofEpochSecond(1704067200L + rnd.nextInt(40 * 86400), 0,
          java.time.ZoneOffset.UTC).format(java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")) + "'";
    }

    String bool(int depth) {
      List<Supplier<String>> leaves = List.of(
          () -> num() + " " + pick("=", "!=", "<", "<=", ">", ">=") + " " + small(),
          () -> num() + " " + pick("=", "<", ">=") + " " + num(),
          // Integers only in IN lists: lance-core compares cardinality() (UInt64) with a float
          // there as Decimal128 and fails on NaN.
          () -> num() + pick(" IN (", " NOT IN (") + small() + ", " + integer() + ", " + small() + ")",
          () -> num() + pick(" BETWEEN ", " NOT BETWEEN ") + small() + " AND " + rnd.nextInt(30),
          () -> str() + " " + pick("=", "!=", "<", ">=") + " " + word(),
          () -> str() + pick(" LIKE ", " NOT LIKE ", " ILIKE ", " NOT ILIKE ") + pick("'a%'", "'%b%'", "'_b%'", "'%'",
              "'ABC'", "'é%'", "''", "'%c'"),
          () -> pick("starts_with(", "ends_with(", "contains(") + str() + ", " + pick("'a'", "'b'", "''", "'c'", "'é'")
              + ")",
          () -> "regexp_like(" + str() + ", '" + pick("^a", "b.$", "[0-9]+", "^$", "é|z", "^[a-z ]+$") + "'"
              + pick("", ", 'i'") + ")",
          () -> pick("s", "st.b", "tags", "nums", "i", "d", "dt", "ts", "flag", "lower(s)", "tags[1]", "nums[2]")
              + pick(" IS NULL", " IS NOT NULL"),
          () -> "(" + cmp() + ")" + pick(" IS TRUE", " IS NOT TRUE", " IS FALSE", " IS NOT FALSE"),
          () -> pick("flag", "NOT flag", "flag = true", "flag IS NOT TRUE"),
          () -> pick("array_has(tags, ", "array_contains(tags, ") + tag() + ")",
          () -> "array_has(nums, " + rnd.nextInt(10) + ")",
          () -> pick("array_has_any(", "array_has_all(") + "tags, [" + tag() + pick("", ", " + tag(), ", NULL") + "])",
          () -> pick("array_has_any(", "array_has_all(") + "nums, [" + rnd.nextInt(10) + ", " + rnd.nextInt(10) + "])",
          () -> pick("dt", "CAST(ts AS DATE)") + " " + pick("<", ">=", "=") + " " + date(),
          () -> pick("ts", "date_trunc('day', ts)", "date_trunc('hour', ts)", "date_trunc('month', ts)", "dt")
              + " " + pick("<", ">=") + " " + timestamp(),
          () -> "regexp_match(" + str() + ", '" + pick("b", "^a", "[0-9]") + "')");
      if (depth <= 0 || rnd.nextInt(3) == 0) {
        return pickOf(leaves);
      }
      return switch (rnd.nextInt(4)) {
        case 0 -> bool(depth - 1) + " AND " + bool(depth - 1);
        case 1 -> bool(depth - 1) + " OR " + bool(depth - 1);
        case 2 -> "NOT (" + bool(depth - 1) + ")";
        default -> "(" + bool(depth - 1) + " " + pick("AND", "OR") + " " + bool(depth - 1) + ")";
      };
    }

    private String cmp() {
      return num() + " " + pick("<", ">", "=") + " " + small();
    }

    String num() {
      return rnd.nextInt(3) == 0 ? pickOf(List.of(
          () -> pick("f", "d"),
          () -> "abs(" + pick("d", "f") + ")",
          () -> "round(d" + pick("", ", 1", ", -1") + ")",
          () -> "CAST(" + pick("i", "st.a") + " AS DOUBLE)",
          () -> pick("i", "l") + "::double",
          () -> "TRY_CAST(" + pick("s", "st.b") + " AS DOUBLE)")) : integer();
    }

    String integer() {
      return pickOf(List.of(
          () -> pick("i", "l", "id", "st.a"),
          () -> pick("i", "l", "st.a") + " " + pick("+", "-", "*") + " " + rnd.nextInt(5),
          () -> "id % " + (rnd.nextInt(9) + 2),
          () -> "abs(" + pick("i", "l", "l - 500") + ")",
          () -> pick("length(", "char_length(", "octet_length(") + str() + ")",
          () -> "strpos(" + str() + ", " + pick("'b'", "'é'", "''") + ")",
          () -> pick("array_length(", "cardinality(") + pick("tags", "nums") + ")",
          () -> "nums[" + pick("1", "2", "-1", "0") + "]",
          () -> "date_part('" + pick("year", "month", "day", "dow", "doy", "quarter", "week") + "', " + pick("dt", "ts")
              + ")",
          () -> "date_part('" + pick("hour", "minute", "second", "millisecond") + "', ts)",
          () -> "COALESCE(" + pick("i", "l", "st.a") + ", " + small() + ")",
          () -> "NULLIF(" + pick("i", "l") + ", " + small() + ")",
          () -> "CAST(" + pick("i", "st.a") + " AS BIGINT)",
          () -> "TRY_CAST(" + pick("s", "st.b") + " AS " + pick("INT", "BIGINT") + ")"));
    }

    String str() {
      return pickOf(List.of(
          () -> pick("s", "st.b", "s", "tags[1]", "tags[-1]"),
          () -> pick("lower(", "upper(", "ltrim(", "rtrim(", "btrim(") + pick("s", "st.b") + ")",
          () -> "concat(" + pick("s", "st.b") + ", " + word() + ")",
          () -> "concat(" + pick("i", "l") + ", " + pick("s", "st.b") + ")",
          () -> pick("s", "st.b") + " || " + word(),
          () -> "COALESCE(" + pick("s", "st.b") + ", " + word() + ")",
          () -> "CAST(" + pick("i", "l", "id") + " AS STRING)",
          () -> "NULLIF(s, " + word() + ")"));
    }
  }
}
