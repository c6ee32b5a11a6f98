package dev.javelin.bench;

import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.LanceFileWriter;
import dev.javelin.format.WriteOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The benchmark data set: {@code id int64, score float64, name utf8, vector fixed_size_list<float32,128>},
 * generated deterministically in batches so every run and both libraries see the same values.
 */
public final class BenchData {
  public static final int DIMENSION = 128;
  public static final int BATCH = 65_536;

  private BenchData() {}

  public static Schema schema() {
    Field item = new Field("item", FieldType.nullable(new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)), null);
    return new Schema(List.of(
        new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
        new Field("score", FieldType.nullable(new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)), null),
        new Field("name", FieldType.nullable(ArrowType.Utf8.INSTANCE), null),
        new Field("vector", FieldType.nullable(new ArrowType.FixedSizeList(DIMENSION)), List.of(item))));
  }

  /** Fills {@code root} (of {@link #schema()}) with rows [first, first + count). */
  public static void fill(VectorSchemaRoot root, long first, int count) {
    Random random = new Random(first * 31 + 7);
    root.allocateNew();
    BigIntVector id = (BigIntVector) root.getVector("id");
    Float8Vector score = (Float8Vector) root.getVector("score");
    VarCharVector name = (VarCharVector) root.getVector("name");
    FixedSizeListVector vector = (FixedSizeListVector) root.getVector("vector");
    Float4Vector items = (Float4Vector) vector.getDataVector();
    items.setInitialCapacity(count * DIMENSION);
    items.allocateNew();
    for (int i = 0; i < count; i++) {
      long row = first + i;
      id.setSafe(i, row);
      score.setSafe(i, random.nextGaussian() * 100);
      name.setSafe(i, ("user-" + Long.toString(row * 2654435761L % 1_000_003, 36) + "-" + (row % 97))
          .getBytes(StandardCharsets.UTF_8));
      vector.setNotNull(i);
      for (int d = 0; d < DIMENSION; d++) {
        items.setSafe(i * DIMENSION + d, random.nextFloat());
      }
    }
    items.setValueCount(count * DIMENSION);
    root.setRowCount(count);
  }

  /** Writes {@code rows} rows with Javelin, unless the file is already there. */
  public static Path writeJavelin(BufferAllocator allocator, Path file, LanceFileVersion version, long rows)
      throws IOException {
    if (Files.exists(file)) {
      return file;
    }
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    Files.deleteIfExists(tmp);
    try (VectorSchemaRoot root = VectorSchemaRoot.create(schema(), allocator);
        LanceFileWriter w = LanceFileWriter.create(tmp, schema(), WriteOptions.builder().version(version).build())) {
      for (long first = 0; first < rows; first += BATCH) {
        fill(root, first, (int) Math.min(BATCH, rows - first));
        w.write(root);
      }
    }
    Files.move(tmp, file);
    return file;
  }

  /** Writes {@code rows} rows with lance-core, unless the file is already there. */
  public static Path writeLance(BufferAllocator allocator, Path file, String version, long rows) throws Exception {
    if (Files.exists(file)) {
      return file;
    }
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    Files.deleteIfExists(tmp);
    try (VectorSchemaRoot root = VectorSchemaRoot.create(schema(), allocator);
        org.lance.file.LanceFileWriter w =
            org.lance.file.LanceFileWriter.open(tmp.toString(), allocator, null, Optional.of(version), Map.of())) {
      for (long first = 0; first < rows; first += BATCH) {
        fill(root, first, (int) Math.min(BATCH, rows - first));
        w.write(root);
      }
    }
    Files.move(tmp, file);
    return file;
  }

  /** Where benchmark files live: {@code -Djavelin.bench.dir}, else {@code bench-data/} under the working directory. */
  public static Path dir() throws IOException {
    Path dir = Path.of(System.getProperty("javelin.bench.dir", "bench-data"));
    Files.createDirectories(dir);
    return dir;
  }

  /** Rows in the benchmark file: {@code -Djavelin.bench.rows}, default 1,000,000. */
  public static long rows() {
    return Long.getLong("javelin.bench.rows", 1_000_000L);
  }
}
