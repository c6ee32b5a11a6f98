package dev.javelin.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.javelin.compat.DecShapes.Case;
import dev.javelin.format.LanceFileReader;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.ReadOptions;
import dev.javelin.format.exceptions.CorruptFileException;
import dev.javelin.format.exceptions.UnsupportedFormatException;
import dev.javelin.io.ByteArrayInputFile;
import dev.javelin.io.CountingInputFile;
import dev.javelin.io.InputFile;
import dev.javelin.io.LocalInputFile;
import dev.javelin.testing.ArrowData;
import dev.javelin.testing.TestAllocator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * lance-core 7.0.0 writes files with its default settings (format 2.1, every encoding it picks on
 * its own) and, for the same data, format 2.2; Javelin reads them back with values equal to what
 * was written: whole, by row ranges and by random takes. The data shapes ({@link DecShapes})
 * make lance-core use each of its 2.1 encodings, which the test checks in the page layouts. Takes
 * read only the chunks or values holding their rows; damaged files fail with a typed exception.
 */
class LanceWrites21Test {
  @TempDir Path dir;
  @TestAllocator BufferAllocator allocator;

  static Stream<Arguments> cases() {
    List<Arguments> out = new ArrayList<>();
    for (Case c : DecShapes.cases()) {
      out.add(Arguments.of(c, "2.1 (default)"));
      out.add(Arguments.of(c, "2.2"));
    }
    return out.stream();
  }

  /** Writes the case with lance-core; {@code version} null means lance-core's default. */
  private Path lanceWrite(Case c, String version) throws Exception {
    Path f = Files.createTempFile(dir, "lance", ".lance");
    Files.delete(f);
    try (VectorSchemaRoot root = ArrowData.root(new Schema(c.fields), c.rows, allocator);
        org.lance.file.LanceFileWriter w = org.lance.file.LanceFileWriter.open(f.toString(), allocator, null,
            Optional.ofNullable(version), Map.of())) {
      w.write(root);
    }
    return f;
  }

  private List<List<Object>> expected(Case c) {
    try (VectorSchemaRoot root = ArrowData.root(new Schema(c.fields), c.rows, allocator)) {
      return V21SmokeTest.rows(root);
    }
  }

  private List<List<Object>> scan(Path f, ReadOptions options) throws Exception {
    List<List<Object>> out = new ArrayList<>();
    try (LanceFileReader r = LanceFileReader.open(f, allocator); ArrowReader it = r.read(options)) {
      while (it.loadNextBatch()) {
        out.addAll(V21SmokeTest.rows(it.getVectorSchemaRoot()));
      }
    }
    return out;
  }

  private List<List<Object>> take(Path f, long[] rows) throws Exception {
    try (LanceFileReader r = LanceFileReader.open(f, allocator); VectorSchemaRoot root = r.take(rows, null)) {
      return V21SmokeTest.rows(root);
    }
  }

  @ParameterizedTest(name = "{0}, {1}")
  @MethodSource("cases")
  void javelinReadsWhatLanceWrites(Case c, String version) throws Exception {
    boolean v22 = version.equals("2.2");
    Path f = lanceWrite(c, v22 ? "2.2" : null);
    try (LanceFileReader r = LanceFileReader.open(f, allocator)) {
      assertThat(r.version()).isEqualTo(v22 ? LanceFileVersion.V2_2 : LanceFileVersion.V2_1);
    }
    if (!v22 && c.expect.length > 0) {
      String layouts = String.join("\n", V21SmokeTest.layouts(f));
      assertThat(layouts).as("the encodings lance-core chose").contains(c.expect);
    }
    List<List<Object>> expected = expected(c);
    int n = expected.size();
    assertThat(scan(f, ReadOptions.builder().batchSize(777).build())).isEqualTo(expected);

    Random r = new Random(c.name.hashCode());
    for (int k = 0; k < 3; k++) {
      int a = r.nextInt(n);
      int b = a + 1 + r.nextInt(Math.min(n - a, 2_500));
      assertThat(scan(f, ReadOptions.builder().rows(a, b).batchSize(500).build())).as("rows %s..%s", a, b)
          .isEqualTo(expected.subList(a, b));
    }

    long[] rows = new long[Math.min(120, 2 * n)];
    List<List<Object>> want = new ArrayList<>();
    for (int i = 0; i < rows.length; i++) {
      rows[i] = i % 10 == 9 ? rows[i - 1] : r.nextInt(n);
      want.add(expected.get((int) rows[i]));
    }
    assertThat(take(f, rows)).isEqualTo(want);
  }

  /** Bytes read to take the given rows, once the file's metadata has been read. */
  private long takeCost(Path file, long... rows) throws Exception {
    CountingInputFile in = new CountingInputFile(LocalInputFile.open(file));
    try (LanceFileReader r = LanceFileReader.open(in, allocator)) {
      in.reset();
      try (VectorSchemaRoot t = r.take(rows, null)) {
        assertThat(t.getRowCount()).isEqualTo(rows.length);
      }
      return in.bytesRead();
    }
  }

  private Case big(String name, Field field, java.util.function.Function<Integer, Object> value) {
    return DecShapes.column(name, field, 200_000, value);
  }

  /**
   * A take of a few rows reads the page's chunk metadata (and dictionary or repetition index) and
   * the chunks holding the rows, never whole pages: here at most a few percent of the file.
   */
  @Test
  void takesReadOnlyTheChunksHoldingTheRows() throws Exception {
    Random r = new Random(5);
    String[] words = {"alpha", "beta", "gamma", "delta", "epsilon"};
    List<Case> cases = List.of(
        big("bit-packed int64", DecShapes.field("x", DecShapes.I64),
            i -> i % 10 == 0 ? null : DecShapes.le(r.nextInt(1 << 20), 8)),
        big("fsst strings", DecShapes.field("x", DecShapes.UTF8), i -> DecShapes.utf8(DecShapes.word(r, 5, 40))),
        big("dictionary strings", DecShapes.field("x", DecShapes.UTF8), i -> DecShapes.utf8(words[r.nextInt(5)])),
        big("list<int32>", ArrowData.list("x", DecShapes.field("item", DecShapes.I32)), i -> {
          List<Object> l = new ArrayList<>();
          for (int k = r.nextInt(6); k > 0; k--) {
            l.add(DecShapes.le(r.nextInt(1000), 4));
          }
          return i % 7 == 0 ? null : l;
        }));
    String[] expect = {"inline_bitpacking", "fsst", "dictionary", "rep_compression"};
    for (int k = 0; k < cases.size(); k++) {
      Case c = cases.get(k);
      Path f = lanceWrite(c, null);
      assertThat(String.join("", V21SmokeTest.layouts(f))).contains(expect[k]);
      long size = Files.size(f);
      long one = takeCost(f, 123_457);
      long three = takeCost(f, 5, 100_001, 199_998);
      // A chunk is at most 32 KiB; the chunk metadata of 200,000 rows is well under 1 KiB; a
      // dictionary of five words and a repetition index of a few hundred chunks are small.
      assertThat(one).as(c.name + ": one row of a %s-byte file", size).isLessThan(48 * 1024).isLessThan(size / 20);
      assertThat(three).as(c.name + ": three rows").isLessThan(3 * 40 * 1024).isLessThan(size / 8);
      assertThat(take(f, new long[] {123_457})).isEqualTo(expected(c).subList(123_457, 123_458));
    }
  }

  /** Full-zip pages: a take reads two repetition index entries and the rows' bytes. */
  @Test
  void fullZipTakesReadOnlyTheirValues() throws Exception {
    Random r = new Random(6);
    Case strings = DecShapes.column("long strings", DecShapes.field("x", DecShapes.UTF8), 4_000,
        i -> DecShapes.utf8(DecShapes.word(r, 300, 1000)));
    Case blobs = DecShapes.column("binaries over 32 KiB", DecShapes.field("x", ArrowType.LargeBinary.INSTANCE), 60, i -> {
      byte[] b = new byte[40_000];
      r.nextBytes(b);
      return b;
    });
    for (Case c : List.of(strings, blobs)) {
      Path f = lanceWrite(c, null);
      assertThat(String.join("", V21SmokeTest.layouts(f))).contains("full_zip");
      long size = Files.size(f);
      long one = takeCost(f, c.rows.size() / 2);
      assertThat(one).as(c.name).isLessThan(c == strings ? 2 * 1024 : 42 * 1024).isLessThan(size / 20);
    }
  }

  /**
   * Damaged files lance-core wrote, with every kind of page Javelin decodes: random bytes of data
   * and metadata changed, or one field of a page's layout (a bit width, a count, a flag, a symbol
   * table, a nested encoding) given another value. Reading must give vectors of the right length
   * or a {@link CorruptFileException} / {@link UnsupportedFormatException}; never another
   * exception, a hang or a leak (each case has its own allocator, closed after it).
   */
  @Test
  @Timeout(value = 80, unit = TimeUnit.SECONDS)
  void damagedFilesFailCleanly() throws Exception {
    List<Case> picked = new ArrayList<>();
    for (Case c : DecShapes.cases()) {
      if (c.rows.size() <= 20_000 && !c.name.startsWith("every") && !c.name.startsWith("binaries")) {
        picked.add(shrink(c, 1_500));
      }
    }
    // -Ddec.fuzz.seed and -Ddec.fuzz.iterations widen the search when hunting for bugs.
    Random r = new Random(Long.getLong("dec.fuzz.seed", 11));
    int iterations = Integer.getInteger("dec.fuzz.iterations", 16);
    int[] outcomes = new int[2];
    Path scratch = dir.resolve("mutated.lance");
    for (Case c : picked) {
      for (String version : new String[] {null, "2.2"}) {
        byte[] good = Files.readAllBytes(lanceWrite(c, version));
        long metaStart = java.nio.ByteBuffer.wrap(good, good.length - 40, 8).order(java.nio.ByteOrder.LITTLE_ENDIAN)
            .getLong();
        for (int iter = 0; iter < iterations; iter++) {
          byte[] b;
          if (iter % 2 == 0) {
            b = good.clone();
            for (int k = 1 + r.nextInt(4); k > 0; k--) {
              // Half the flips in the data, half in the (much smaller) metadata.
              int at = r.nextBoolean() || metaStart >= good.length - 40 ? r.nextInt(good.length - 40)
                  : (int) metaStart + r.nextInt((int) (good.length - 40 - metaStart));
              b[at] = (byte) (r.nextInt(3) == 0 ? r.nextInt() : b[at] ^ (1 << r.nextInt(8)));
            }
          } else {
            b = DecLayoutMutator.mutate(good, scratch, r);
          }
          outcomes[readDamaged(c.name, b, r) ? 0 : 1]++;
        }
      }
    }
    System.out.println("damaged files: " + outcomes[0] + " decoded, " + outcomes[1] + " refused");
    assertThat(outcomes[0]).as("damaged files that still decoded").isPositive();
    assertThat(outcomes[1]).as("damaged files refused").isPositive();
  }

  private static Case shrink(Case c, int rows) {
    return new Case(c.name, c.fields, c.rows.subList(0, Math.min(rows, c.rows.size())), c.expect);
  }

  /** Reads everything and takes some rows; true when it decoded, false when it was refused. */
  private boolean readDamaged(String name, byte[] bytes, Random r) {
    try (BufferAllocator a = allocator.newChildAllocator(name, 0, Long.MAX_VALUE)) {
      InputFile in = new ByteArrayInputFile(bytes);
      try (LanceFileReader reader = LanceFileReader.open(in, a)) {
        long n = reader.numRows();
        long seen = 0;
        try (ArrowReader it = reader.read(ReadOptions.builder().batchSize(500).build())) {
          while (it.loadNextBatch()) {
            VectorSchemaRoot root = it.getVectorSchemaRoot();
            for (FieldVector v : root.getFieldVectors()) {
              assertThat(v.getValueCount()).isEqualTo(root.getRowCount());
            }
            seen += root.getRowCount();
          }
        }
        assertThat(seen).as(name).isEqualTo(n);
        if (n > 0) {
          long[] rows = {r.nextInt((int) n), r.nextInt((int) n), 0};
          try (VectorSchemaRoot t = reader.take(rows, null)) {
            assertThat(t.getRowCount()).isEqualTo(3);
            for (FieldVector v : t.getFieldVectors()) {
              assertThat(v.getValueCount()).isEqualTo(3);
            }
          }
        }
        return true;
      }
    } catch (CorruptFileException | UnsupportedFormatException e) {
      return false;
    } catch (Exception | Error e) {
      if (e instanceof AssertionError) {
        throw (AssertionError) e;
      }
      fail(name + ": damaged file raised " + e, e);
      return false;
    }
  }
}
