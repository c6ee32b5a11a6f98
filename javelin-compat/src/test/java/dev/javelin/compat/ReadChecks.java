package dev.javelin.compat;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.format.LanceFileReader;
import dev.javelin.format.ReadOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The ways a reader is checked against the rows a file should hold: a full scan in random batch
 * sizes, row ranges, projections and random takes (sorted, unsorted, with duplicates), each
 * compared row by row with {@link VectorAssertions}.
 */
final class ReadChecks {
  private ReadChecks() {}

  /** Checks Javelin's reader on {@code file} against {@code expected}, in every way. */
  static void javelin(Path file, Table expected, Random random, BufferAllocator allocator, String context)
      throws IOException {
    try {
      javelinChecks(file, expected, random, allocator, context);
    } catch (IOException | RuntimeException e) {
      throw new AssertionError("Javelin failed to read " + file + ": " + e + "\n  [" + context + "]", e);
    }
  }

  private static void javelinChecks(Path file, Table expected, Random random, BufferAllocator allocator,
      String context) throws IOException {
    try (LanceFileReader reader = LanceFileReader.open(file, allocator)) {
      assertThat(reader.numRows()).as("numRows [%s]", context).isEqualTo(expected.rowCount());
      VectorAssertions.assertSameSchema(expected.schema(), reader.schema(), context);
      int n = expected.rowCount();

      int batch = 1 + random.nextInt(random.nextBoolean() ? 50 : 5000);
      try (Table all = JavelinIO.read(reader, allocator, ReadOptions.builder().batchSize(batch).build())) {
        VectorAssertions.assertRowsEqual(expected, null, null, all, context + ", full scan, batch " + batch);
      }

      for (int i = 0; i < 3; i++) {
        long start = n == 0 ? 0 : random.nextInt(n + 1);
        long end = start + (n == start ? 0 : random.nextInt((int) (n - start) + 1));
        List<String> cols = random.nextBoolean() ? null : projection(expected.schema(), random);
        ReadOptions opts = ReadOptions.builder().rows(start, end).columns(cols)
            .batchSize(1 + random.nextInt(700)).build();
        try (Table part = JavelinIO.read(reader, allocator, opts)) {
          VectorAssertions.assertRowsEqual(expected, range(start, end), cols, part,
              context + ", rows " + start + ":" + end + ", columns " + cols);
        }
      }

      if (n > 0) {
        for (long[] rows : takes(n, random)) {
          List<String> cols = random.nextBoolean() ? null : projection(expected.schema(), random);
          try (Table taken = JavelinIO.take(reader, rows, cols)) {
            VectorAssertions.assertRowsEqual(expected, rows, cols, taken,
                context + ", take " + describe(rows) + ", columns " + cols);
          }
        }
      }
      try (Table none = JavelinIO.take(reader, new long[0], null)) {
        VectorAssertions.assertRowsEqual(expected, new long[0], null, none, context + ", take of no rows");
      }
    }
  }

  /** Checks lance-core's reader on {@code file}: a full scan, then a range and a projection. */
  static void lance(Path file, Table expected, Random random, BufferAllocator allocator, String context)
      throws IOException {
    try {
      lanceChecks(file, expected, random, allocator, context);
    } catch (IOException | RuntimeException e) {
      throw new AssertionError("lance-core failed to read " + file + ": " + e.getMessage() + "\n  [" + context + "]", e);
    }
  }

  private static void lanceChecks(Path file, Table expected, Random random, BufferAllocator allocator,
      String context) throws IOException {
    assertThat(LanceOracle.numRows(file, allocator)).as("lance-core numRows [%s]", context)
        .isEqualTo(expected.rowCount());
    try (Table all = LanceOracle.readAll(file, allocator)) {
      VectorAssertions.assertTablesEqual(expected, all, context + ", lance-core full scan");
    }
    int n = expected.rowCount();
    if (n > 0) {
      context += ", lance-core rows ";
      int start = random.nextInt(n);
      int end = start + 1 + random.nextInt(n - start);
      // lance-core returns projected columns in the file's order.
      List<String> cols = inFileOrder(projection(expected.schema(), random), expected.schema());
      try (Table part = LanceOracle.read(file, allocator, cols, List.of(new long[] {start, end}))) {
        VectorAssertions.assertRowsEqual(expected, range(start, end), cols, part,
            context + ", lance-core rows " + start + ":" + end + ", columns " + cols);
      }
    }
  }

  /** A random non-empty subset of the top-level columns, in random order. */
  static List<String> projection(Schema schema, Random random) {
    List<String> names = new ArrayList<>();
    for (Field f : schema.getFields()) {
      names.add(f.getName());
    }
    Collections.shuffle(names, random);
    return new ArrayList<>(names.subList(0, 1 + random.nextInt(names.size())));
  }

  private static List<String> inFileOrder(List<String> columns, Schema schema) {
    List<String> out = new ArrayList<>();
    for (Field f : schema.getFields()) {
      if (columns.contains(f.getName())) {
        out.add(f.getName());
      }
    }
    return out;
  }

  static long[] range(long start, long end) {
    long[] out = new long[(int) (end - start)];
    for (int i = 0; i < out.length; i++) {
      out[i] = start + i;
    }
    return out;
  }

  // Row sets for take: one row, the first and last rows, sorted unique, unsorted with duplicates.
  private static List<long[]> takes(int n, Random random) {
    List<long[]> out = new ArrayList<>();
    out.add(new long[] {random.nextInt(n)});
    out.add(new long[] {0, n - 1});
    int k = 1 + random.nextInt(Math.min(n, 200));
    out.add(random.longs(k, 0, n).sorted().distinct().toArray());
    out.add(random.longs(1 + random.nextInt(60), 0, n).toArray());
    return out;
  }

  private static String describe(long[] rows) {
    return rows.length <= 12 ? Arrays.toString(rows) : rows.length + " rows " + Arrays.toString(Arrays.copyOf(rows, 12)) + "...";
  }
}
