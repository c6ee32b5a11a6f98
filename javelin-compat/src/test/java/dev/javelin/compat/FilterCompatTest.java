package dev.javelin.compat;

import static dev.javelin.compat.DatasetCompatSupport.assertSameRows;
import static dev.javelin.compat.DatasetCompatSupport.readAll;
import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.core.Dataset;
import dev.javelin.testing.Readers;
import dev.javelin.testing.TestAllocator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
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
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lance.ipc.ScanOptions;

/**
 * Javelin's filtered scans and counts on a dataset lance-core 7.0.0 wrote equal lance-core's own
 * scans with the same filter text, row by row, for filters of every kind.
 */
class FilterCompatTest {
  static final Schema SCHEMA = new Schema(List.of(
      new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
      Field.nullable("i", new ArrowType.Int(32, true)),
      Field.nullable("f", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)),
      Field.nullable("d", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
      Field.nullable("s", ArrowType.Utf8.INSTANCE),
      Field.nullable("flag", ArrowType.Bool.INSTANCE),
      Field.nullable("dt", new ArrowType.Date(DateUnit.DAY)),
      Field.nullable("ts", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null)),
      new Field("st", FieldType.nullable(ArrowType.Struct.INSTANCE), List.of(
          Field.nullable("a", new ArrowType.Int(32, true)),
          Field.nullable("b", ArrowType.Utf8.INSTANCE)))));

  static final List<String> FILTERS = List.of(
      "i > 10",
      "i <= -5 OR d > 0.5",
      "NOT (i > 0)",
      "i = 3",
      "i != 3 AND i <> 4",
      "i IN (1, 2, 3, -7)",
      "i NOT IN (1, 2, 3)",
      "i IS NULL",
      "d IS NOT NULL AND f < 0.25",
      "f >= 0.5",
      "i BETWEEN -10 AND 10",
      "i NOT BETWEEN -10 AND 10",
      "s LIKE 'ab%'",
      "s NOT LIKE 'ab%'",
      "s LIKE '%c_'",
      "s LIKE '_b%'",
      "s = 'abc'",
      "s > 'm' AND s < 'q'",
      "s IS NULL",
      "flag",
      "flag = false",
      "NOT flag",
      "flag IS NULL OR flag = true",
      "dt > date '2020-06-01'",
      "dt = date '2020-01-05'",
      "dt BETWEEN date '2020-02-01' AND date '2020-03-01'",
      "ts >= timestamp '2020-01-02 00:00:00'",
      "ts < timestamp '2020-01-01 12:00:00.5'",
      "st.a > 50",
      "st.b = 'x1' OR st.a IS NULL",
      "i + 1 > 5",
      "i * 2 - 3 <= d * 100",
      "id % 7 = 0",
      "i / 2 = 3",
      "-i > 20",
      "`i` = 3 OR s = \"abc\"",
      "(i > 0 OR flag) AND s IS NOT NULL",
      "i > 0 AND (flag OR d < 0.1)",
      "i = NULL",
      "id >= 1200 AND id < 1300");

  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  private static final String[] WORDS = {"abc", "abd", "ab", "xbc", "mno", "pqr", "zz", "", "é", "ac", "abcd"};

  /** Random rows with nulls in every nullable column (no struct-level nulls: 2.0 drops them). */
  static VectorSchemaRoot batch(BufferAllocator a, Random rnd, long start, int n) {
    VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, a);
    root.allocateNew();
    StructVector st = (StructVector) root.getVector("st");
    for (int k = 0; k < n; k++) {
      ((BigIntVector) root.getVector("id")).setSafe(k, start + k);
      if (rnd.nextInt(8) != 0) {
        ((IntVector) root.getVector("i")).setSafe(k, rnd.nextInt(61) - 30);
      }
      if (rnd.nextInt(8) != 0) {
        ((Float4Vector) root.getVector("f")).setSafe(k, rnd.nextInt(16) / 16f);
      }
      if (rnd.nextInt(8) != 0) {
        ((Float8Vector) root.getVector("d")).setSafe(k, rnd.nextDouble() - 0.2);
      }
      if (rnd.nextInt(8) != 0) {
        String w = WORDS[rnd.nextInt(WORDS.length)] + (rnd.nextBoolean() ? "" : WORDS[rnd.nextInt(WORDS.length)]);
        ((VarCharVector) root.getVector("s")).setSafe(k, w.getBytes(StandardCharsets.UTF_8));
      }
      if (rnd.nextInt(8) != 0) {
        ((BitVector) root.getVector("flag")).setSafe(k, rnd.nextInt(2));
      }
      if (rnd.nextInt(8) != 0) {
        ((DateDayVector) root.getVector("dt")).setSafe(k, 18262 + rnd.nextInt(120)); // from 2020-01-01
      }
      if (rnd.nextInt(8) != 0) {
        ((TimeStampMicroVector) root.getVector("ts")).setSafe(k,
            1577836800_000000L + rnd.nextInt(3 * 86400) * 1_000_000L + rnd.nextInt(2) * 500_000L);
      }
      st.setIndexDefined(k);
      IntVector sa = (IntVector) st.getChild("a");
      if (rnd.nextInt(8) != 0) {
        sa.setSafe(k, rnd.nextInt(100));
      }
      ((VarCharVector) st.getChild("b")).setSafe(k, ("x" + rnd.nextInt(5)).getBytes(StandardCharsets.UTF_8));
    }
    root.setRowCount(n);
    return root;
  }

  private void lanceWrite(Path path, String storageVersion, int rows) throws Exception {
    Random rnd = new Random(7);
    List<VectorSchemaRoot> data = new ArrayList<>();
    for (int done = 0; done < rows; done += 500) {
      data.add(batch(allocator, rnd, done, Math.min(500, rows - done)));
    }
    try (ArrowReader reader = readerOf(data)) {
      var builder = org.lance.Dataset.write().allocator(allocator).reader(reader).uri(path.toString())
          .mode(org.lance.WriteParams.WriteMode.CREATE).maxRowsPerFile(700);
      if (storageVersion != null) {
        builder.dataStorageVersion(storageVersion);
      }
      builder.execute().close();
    } finally {
      data.forEach(VectorSchemaRoot::close);
    }
  }

  private ArrowReader readerOf(List<VectorSchemaRoot> batches) {
    return Readers.readerOf(allocator, SCHEMA, batches);
  }

  @ParameterizedTest
  @ValueSource(strings = {"2.0", "2.1"})
  void filteredScansAndCountsEqualLanceCore(String storageVersion) throws Exception {
    Path path = dir.resolve("ds");
    lanceWrite(path, storageVersion, 2500);
    Dataset ds = Dataset.open(path, allocator);
    readAll(ds.newScan().build()); // a file Javelin cannot decode fails the test
    try (org.lance.Dataset lance = org.lance.Dataset.open(path.toString(), allocator)) {
      for (String filter : FILTERS) {
        List<List<String>> want = lanceScan(lance, new ScanOptions.Builder().filter(filter));
        List<List<String>> got = readAll(ds.newScan().filter(filter).batchSize(300).build());
        assertThat(got.size()).as(filter).isEqualTo(want.size());
        assertSameRows(got, want);
        assertThat(ds.countRows(filter)).as(filter).isEqualTo(lance.countRows(filter));
        // a projection without the filter's columns, with offset and limit
        List<List<String>> page = lanceScan(lance, new ScanOptions.Builder().filter(filter)
            .columns(List.of("id", "s")).offset(7).limit(40));
        assertSameRows(readAll(ds.newScan().filter(filter).columns("id", "s").offset(7).limit(40).build()), page);
      }
      assertThat(FILTERS).allSatisfy(f -> assertThat(f).isNotEmpty());
    }
  }

  private static List<List<String>> lanceScan(org.lance.Dataset lance, ScanOptions.Builder options)
      throws IOException {
    try (var scanner = lance.newScan(options.build())) {
      return readAll(scanner.scanBatches());
    } catch (IOException e) {
      throw e;
    } catch (Exception e) {
      throw new RuntimeException(e);
    }
  }
}
