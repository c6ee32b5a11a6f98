package dev.javelin.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.javelin.format.LanceFileReader;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.ReadOptions;
import dev.javelin.format.exceptions.LanceFormatException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Damaged files written by lance-core and by Javelin, in 2.0, 2.1 and 2.2: every truncation of a small
 * file, random cuts of a larger one, random byte flips in the metadata (schema, column metadata,
 * tables, footer) and in the data pages, and random values in the footer and offset tables.
 *
 * <p>Each damaged file is opened, read in full and sampled by take. Every outcome must be a
 * successful read (flips in data may give wrong values: acceptable) or a {@link
 * LanceFormatException} whose message names the file. Anything else fails the test: another
 * exception type, an {@link OutOfMemoryError}, an allocation beyond {@link #MEMORY_LIMIT}, a
 * buffer leaked on the error path, or a read that does not finish within {@link #LIMIT}.
 * Iterations are seeded, so a failure names its seed and the damage done and can be replayed.
 */
class CorruptFileFuzzTest {
  private static final Duration LIMIT = Duration.ofSeconds(20);
  private static final long MEMORY_LIMIT = 256L << 20;
  // Iterations per test; raise them for a deeper run, e.g. -Dfuzz.flips=5000.
  private static final int FLIPS = Integer.getInteger("fuzz.flips", 150);
  private static final int FIELD_DAMAGE = Integer.getInteger("fuzz.fields", 60);
  private static final int CUTS = Integer.getInteger("fuzz.cuts", 40);

  @TempDir Path dir;

  enum Writer {
    LANCE_CORE,
    JAVELIN
  }

  static Stream<Arguments> files() {
    List<Arguments> out = new ArrayList<>();
    for (Writer w : Writer.values()) {
      for (LanceFileVersion v : LanceFileVersion.values()) {
        out.add(Arguments.of(w, v));
      }
    }
    return out.stream();
  }

  // ------------------------------------------------------------------ the files

  /**
   * A shape both writers store with plain encodings where they can: for 2.1, lance-core is asked
   * not to compress, and the columns have no nulls and no lists (whose rep/def levels it would
   * bitpack); for 2.0, nulls, lists and structs.
   */
  private static Schema schema(LanceFileVersion version) {
    Field fslItem = new Field("item", FieldType.notNullable(new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)), null);
    if (version == LanceFileVersion.V2_1) {
      List<Field> fields = List.of(
          new Field("i", FieldType.notNullable(new ArrowType.Int(32, true)), null),
          new Field("s", FieldType.notNullable(ArrowType.Utf8.INSTANCE), null),
          new Field("v", FieldType.notNullable(new ArrowType.FixedSizeList(16)), List.of(fslItem)),
          new Field("d", FieldType.notNullable(new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)), null),
          new Field("st", FieldType.notNullable(ArrowType.Struct.INSTANCE), List.of(
              new Field("a", FieldType.notNullable(new ArrowType.Int(64, true)), null),
              new Field("b", FieldType.notNullable(ArrowType.Binary.INSTANCE), null))));
      return RandomData.withMetadata(new Schema(fields), LanceWritesJavelinReadsTest.NO_COMPRESSION);
    }
    Field item = new Field("item", FieldType.nullable(new ArrowType.Int(64, true)), null);
    return new Schema(List.of(
        new Field("i", FieldType.nullable(new ArrowType.Int(32, true)), null),
        new Field("s", FieldType.nullable(ArrowType.Utf8.INSTANCE), null),
        new Field("l", FieldType.nullable(ArrowType.List.INSTANCE), List.of(item)),
        new Field("v", FieldType.nullable(new ArrowType.FixedSizeList(16)), List.of(fslItem)),
        new Field("st", FieldType.notNullable(ArrowType.Struct.INSTANCE), List.of(
            new Field("a", FieldType.nullable(new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)), null),
            new Field("b", FieldType.nullable(ArrowType.Binary.INSTANCE), null)))));
  }

  /** Writes a file of {@code rows} random rows (seeded) with the given writer; returns its bytes. */
  private byte[] write(Writer writer, LanceFileVersion version, int rows, long seed) throws IOException {
    Path p = dir.resolve(writer + "-" + version + "-" + rows + "-" + seed + ".lance");
    RandomData data = new RandomData(seed, version == LanceFileVersion.V2_0 ? RandomData.V2_0 : RandomData.V2_1);
    Schema schema = schema(version);
    try (BufferAllocator allocator = new RootAllocator(); VectorSchemaRoot root = data.root(schema, rows, allocator)) {
      List<VectorSchemaRoot> batches = Table.slices(root, Math.max(1, rows / 3));
      try {
        if (writer == Writer.LANCE_CORE) {
          LanceOracle.write(p, version, allocator, batches);
        } else {
          JavelinIO.write(p, version, 1024, schema, batches);
        }
      } finally {
        Table.closeAll(batches);
      }
    }
    return Files.readAllBytes(p);
  }

  // ------------------------------------------------------------------ the damage

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("files")
  void everyTruncationOfASmallFile(Writer writer, LanceFileVersion version) throws IOException {
    byte[] good = write(writer, version, 12, 1);
    Outcomes outcomes = new Outcomes(writer + " " + version + " truncations of " + good.length + " bytes");
    for (int len = 0; len < good.length; len++) {
      byte[] cut = java.util.Arrays.copyOf(good, len);
      String damage = "cut to " + len + " of " + good.length + " bytes";
      // A cut file has lost its footer; only an accidental "LANC" before the cut could open.
      outcomes.run(damage, () -> {
        String outcome = attempt(cut, damage);
        assertThat(outcome).as(damage).isNotEqualTo("read");
        return outcome;
      });
    }
    outcomes.report();
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("files")
  void randomCutsOfALargerFile(Writer writer, LanceFileVersion version) throws IOException {
    byte[] good = write(writer, version, 2000, 2);
    Random random = new Random(20);
    Outcomes outcomes = new Outcomes(writer + " " + version + " random cuts of " + good.length + " bytes");
    for (int i = 0; i < CUTS; i++) {
      int len = random.nextInt(good.length);
      String damage = "seed 20 cut " + i + ": to " + len + " bytes";
      outcomes.run(damage, () -> attempt(java.util.Arrays.copyOf(good, len), damage));
    }
    outcomes.report();
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("files")
  void byteFlipsInTheMetadata(Writer writer, LanceFileVersion version) throws IOException {
    byte[] good = write(writer, version, 300, 3);
    baseline(good, writer, version);
    RawFile raw = new RawFile(good);
    flips(good, raw.metadataStart(), good.length, 30, writer + " " + version + " metadata flips");
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("files")
  void byteFlipsInTheDataPages(Writer writer, LanceFileVersion version) throws IOException {
    byte[] good = write(writer, version, 300, 4);
    baseline(good, writer, version);
    RawFile raw = new RawFile(good);
    flips(good, 0, raw.metadataStart(), 40, writer + " " + version + " data flips");
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("files")
  void damagedFooterAndTables(Writer writer, LanceFileVersion version) throws IOException {
    byte[] good = write(writer, version, 300, 5);
    RawFile raw = new RawFile(good);
    Random random = new Random(50);
    Outcomes outcomes = new Outcomes(writer + " " + version + " footer and table damage");
    // Positions of every u64 in the footer, the column metadata table and the global buffer table.
    List<Long> slots = new ArrayList<>();
    slots.add(raw.footerStart());
    slots.add(raw.footerStart() + 8);
    slots.add(raw.footerStart() + 16);
    for (int i = 0; i < raw.numColumns * 2; i++) {
      slots.add(raw.cmoTableStart + 8L * i);
    }
    for (int i = 0; i < raw.numGlobalBuffers * 2; i++) {
      slots.add(raw.gboTableStart + 8L * i);
    }
    long[] nasty = {0, 1, -1, 7, 63, 64, Long.MAX_VALUE, Long.MIN_VALUE, Integer.MAX_VALUE, 1L << 32,
        good.length, good.length - 40, good.length + 1, good.length - 1};
    for (int i = 0; i < FIELD_DAMAGE; i++) {
      long at = slots.get(random.nextInt(slots.size()));
      long value = random.nextBoolean() ? nasty[random.nextInt(nasty.length)] : random.nextLong() >>> random.nextInt(64);
      byte[] bad = good.clone();
      java.nio.ByteBuffer.wrap(bad).order(java.nio.ByteOrder.LITTLE_ENDIAN).putLong(Math.toIntExact(at), value);
      String damage = "seed 50 damage " + i + ": u64 at " + at + " set to " + value;
      outcomes.run(damage, () -> attempt(bad, damage));
    }
    outcomes.report();
  }

  // The undamaged file must read, or flips in it prove little.
  private void baseline(byte[] good, Writer writer, LanceFileVersion version) {
    if (writer == Writer.LANCE_CORE && version == LanceFileVersion.V2_1) {
      assertThat(PageEncodings.of(new RawFile(good).columns()).compressive())
          .as("encodings lance-core chose for the 2.1 fuzz file").isEmpty();
    }
    assertThat(attempt(good, "the undamaged " + writer + " " + version + " file")).isEqualTo("read");
  }

  // Flips 1 to 3 random bytes in [from, to) per iteration; seeded by baseSeed and the iteration.
  private void flips(byte[] good, long from, long to, long baseSeed, String what) {
    Outcomes outcomes = new Outcomes(what + " in bytes " + from + ".." + to);
    for (int i = 0; i < FLIPS; i++) {
      Random random = new Random(baseSeed * 1_000_003 + i);
      byte[] bad = good.clone();
      StringBuilder done = new StringBuilder();
      int n = 1 + random.nextInt(3);
      for (int k = 0; k < n; k++) {
        int at = (int) (from + random.nextInt((int) (to - from)));
        int mask = 1 + random.nextInt(255);
        bad[at] ^= (byte) mask;
        done.append(k == 0 ? "" : ", ").append("byte ").append(at).append(" ^= 0x").append(Integer.toHexString(mask));
      }
      String damage = what + " #" + i + " (seed " + (baseSeed * 1_000_003 + i) + "): " + done;
      outcomes.run(damage, () -> attempt(bad, damage));
    }
    outcomes.report();
  }

  // ------------------------------------------------------------------ one attempt

  /**
   * Writes the bytes to a file and reads it every way. Returns "read" or "refused: <type>";
   * fails the test for any other outcome.
   */
  private String attempt(byte[] bytes, String damage) {
    Path p = dir.resolve("damaged.lance");
    try {
      Files.write(p, bytes);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    return assertTimeoutPreemptively(LIMIT, () -> {
      try (BufferAllocator allocator = new RootAllocator(MEMORY_LIMIT)) {
        try (LanceFileReader r = LanceFileReader.open(p, allocator)) {
          readEverything(r);
          return "read";
        } catch (LanceFormatException e) {
          if (!e.getMessage().contains(p.toString())) {
            throw new AssertionError("The message of " + e + " does not name the file; " + damage, e);
          }
          return "refused: " + e.getClass().getSimpleName();
        } catch (OutOfMemoryError e) {
          throw new AssertionError("Out of memory reading a damaged file; " + damage, e);
        } catch (org.apache.arrow.memory.OutOfMemoryException e) {
          throw new AssertionError("Allocated past " + (MEMORY_LIMIT >> 20) + " MiB reading a damaged file; " + damage, e);
        } catch (Throwable t) {
          throw new AssertionError(t.getClass().getName() + " instead of a LanceFormatException; " + damage, t);
        }
      } catch (IllegalStateException e) {
        // Thrown by the allocator's close: buffers leaked.
        throw new AssertionError("Leaked Arrow buffers reading a damaged file; " + damage, e);
      }
    }, () -> "Reading a damaged file did not finish within " + LIMIT + "; " + damage);
  }

  private static void readEverything(LanceFileReader r) throws IOException {
    long n = r.numRows();
    try (ArrowReader batches = r.read(ReadOptions.all())) {
      while (batches.loadNextBatch()) {
        touch(batches.getVectorSchemaRoot());
      }
    }
    if (n > 0) {
      try (VectorSchemaRoot taken = r.take(new long[] {n - 1, 0, n / 2}, null)) {
        touch(taken);
      }
    }
  }

  // Reads every value: a vector whose offsets or lengths point outside its buffers is not a
  // wrong value but an invalid vector, which would fail (or worse) in the caller's code.
  private static void touch(VectorSchemaRoot root) {
    for (int c = 0; c < root.getFieldVectors().size(); c++) {
      for (int i = 0; i < root.getRowCount(); i++) {
        try {
          root.getVector(c).getObject(i);
        } catch (RuntimeException e) {
          throw new IllegalStateException("Javelin returned an invalid vector: column "
              + root.getVector(c).getName() + " row " + i + " cannot be read (" + e + ")", e);
        }
      }
    }
  }

  /**
   * Runs one test's attempts, counting outcomes; a failed attempt is recorded and the rest still
   * run, so one run shows every kind of failure. {@link #report} prints the counts and fails if
   * any attempt failed.
   */
  private static final class Outcomes {
    private static final int SHOWN = 8;
    private final String what;
    private final Map<String, Integer> counts = new TreeMap<>();
    private final List<String> failures = new ArrayList<>();
    private int attempts;

    Outcomes(String what) {
      this.what = what;
    }

    void run(String damage, java.util.concurrent.Callable<String> attempt) {
      attempts++;
      try {
        counts.merge(attempt.call(), 1, Integer::sum);
      } catch (Throwable t) {
        counts.merge("FAILED", 1, Integer::sum);
        failures.add(damage + "\n      " + describe(t));
      }
    }

    // The failure and where in Javelin it came from.
    private static String describe(Throwable t) {
      Throwable root = t;
      while (root.getCause() != null && root.getCause() != root) {
        root = root.getCause();
      }
      String where = "";
      for (StackTraceElement e : root.getStackTrace()) {
        if (e.getClassName().startsWith("dev.javelin.format")) {
          where = " at " + e;
          break;
        }
      }
      return t.getMessage() + (root == t ? "" : " <- " + root) + where;
    }

    void report() {
      System.out.println("[fuzz] " + what + ": " + counts);
      if (!failures.isEmpty()) {
        StringBuilder b = new StringBuilder(what + ": " + failures.size() + " of " + attempts + " attempts failed");
        for (String f : failures.subList(0, Math.min(SHOWN, failures.size()))) {
          b.append("\n  - ").append(f);
        }
        throw new AssertionError(b.toString());
      }
    }
  }
}
