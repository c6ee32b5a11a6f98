package dev.javelin.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The table the dataset benchmarks use: the scalar columns of {@link BenchData} ({@code id int64,
 * score float64, name utf8}, same values) without the vector, so a million-row dataset can be
 * copied, rewritten and scanned many times in one run.
 */
final class DatasetBenchData {
  /** Rows per fragment both libraries write: a million rows make four fragments. */
  static final int ROWS_PER_FILE = 262_144;

  private DatasetBenchData() {}

  static Schema schema() {
    return new Schema(List.of(
        new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
        new Field("score", FieldType.nullable(new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)), null),
        new Field("name", FieldType.nullable(ArrowType.Utf8.INSTANCE), null)));
  }

  /** Rows [first, first + count) as one batch (the caller closes it). */
  static VectorSchemaRoot batch(BufferAllocator allocator, long first, int count) {
    VectorSchemaRoot root = VectorSchemaRoot.create(schema(), allocator);
    root.allocateNew();
    Random random = new Random(first * 31 + 7);
    BigIntVector id = (BigIntVector) root.getVector("id");
    Float8Vector score = (Float8Vector) root.getVector("score");
    VarCharVector name = (VarCharVector) root.getVector("name");
    for (int i = 0; i < count; i++) {
      long row = first + i;
      id.setSafe(i, row);
      score.setSafe(i, random.nextGaussian() * 100);
      name.setSafe(i, ("user-" + Long.toString(row * 2654435761L % 1_000_003, 36) + "-" + (row % 97))
          .getBytes(StandardCharsets.UTF_8));
    }
    root.setRowCount(count);
    return root;
  }

  /** {@code rows} rows in batches of {@link BenchData#BATCH}. */
  static List<VectorSchemaRoot> batches(BufferAllocator allocator, long first, long rows) {
    List<VectorSchemaRoot> out = new ArrayList<>();
    for (long done = 0; done < rows; done += BenchData.BATCH) {
      out.add(batch(allocator, first + done, (int) Math.min(BenchData.BATCH, rows - done)));
    }
    return out;
  }

  /** An ArrowReader over batches it does not own, for lance-core's writer. */
  static ArrowReader readerOf(BufferAllocator allocator, List<VectorSchemaRoot> batches) {
    return readerOf(allocator, schema(), batches);
  }

  /** An ArrowReader over batches of {@code schema} it does not own. */
  static ArrowReader readerOf(BufferAllocator allocator, Schema schema, List<VectorSchemaRoot> batches) {
    return new ArrowReader(allocator) {
      private int next;

      @Override
      public boolean loadNextBatch() {
        if (next >= batches.size()) {
          return false;
        }
        try (ArrowRecordBatch rb = new VectorUnloader(batches.get(next++)).getRecordBatch()) {
          loadRecordBatch(rb);
        }
        return true;
      }

      @Override
      public long bytesRead() {
        return 0;
      }

      @Override
      protected void closeReadSource() {}

      @Override
      protected Schema readSchema() {
        return schema;
      }
    };
  }

  /** Writes (creates, or appends to) a dataset with lance-core, format 2.1. */
  static void lanceWrite(BufferAllocator allocator, Path path, List<VectorSchemaRoot> batches,
      org.lance.WriteParams.WriteMode mode, int rowsPerFile) throws IOException {
    try (ArrowReader reader = readerOf(allocator, batches)) {
      org.lance.Dataset.write().allocator(allocator).reader(reader).uri(path.toString()).mode(mode)
          .maxRowsPerFile(rowsPerFile).dataStorageVersion("2.1").execute().close();
    }
  }

  static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
  }

  static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
        Files.delete(p);
      }
    }
  }
}
