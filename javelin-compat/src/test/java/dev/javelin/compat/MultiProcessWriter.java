package dev.javelin.compat;

import dev.javelin.core.Dataset;
import dev.javelin.core.WriteParams;
import dev.javelin.testing.Readers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.LongPredicate;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * One writer process of {@link MultiProcessCommitTest}: appends {@code batches} batches of
 * {@code rows} rows with ids in its own range to a shared dataset, and (Javelin only) deletes some
 * of its own rows after each append. What it writes and deletes is a function of its arguments
 * alone, so the test knows the expected outcome without hearing from it.
 *
 * <p>Arguments: {@code javelin|lance path writer batches rows}. Waits for {@code path/../go} before
 * the first commit, after creating {@code path/../ready-<writer>}, so all writers start together.
 */
final class MultiProcessWriter {
  /** Ids of writer w are w * STRIDE + [0, batches * rows). */
  static final long STRIDE = 1_000_000L;

  static final Schema SCHEMA = new Schema(List.of(
      new Field("id", FieldType.notNullable(new ArrowType.Int(64, true)), null),
      Field.nullable("writer", new ArrowType.Int(32, true)),
      Field.nullable("s", ArrowType.Utf8.INSTANCE)));

  private MultiProcessWriter() {}

  /** The filter deleting a third of batch b's rows, right after it is appended. */
  static String batchDelete(int writer, int batch, int rows) {
    long lo = writer * STRIDE + (long) batch * rows;
    return "id >= " + lo + " AND id < " + (lo + rows) + " AND id % 3 = 0";
  }

  /** Whether a wide delete (over all the writer's rows so far) follows batch b. */
  static boolean wideDeleteAfter(int batch) {
    return batch % 3 == 2;
  }

  /** The wide delete after batch b: a fifth of every earlier batch of this writer. */
  static String wideDelete(int writer, int batch, int rows) {
    return "id >= " + writer * STRIDE + " AND id < " + (writer * STRIDE + (long) (batch + 1) * rows) + " AND id % 5 = 1";
  }

  /** Which of a Javelin writer's ids survive all its deletes. */
  static LongPredicate survives(int batches, int rows) {
    int lastWide = -1;
    for (int b = 0; b < batches; b++) {
      if (wideDeleteAfter(b)) {
        lastWide = b;
      }
    }
    int wideUpTo = lastWide;
    return id -> {
      long local = id % STRIDE;
      long batch = local / rows;
      return id % 3 != 0 && !(id % 5 == 1 && batch <= wideUpTo);
    };
  }

  /** Commits a Javelin writer makes: one per append, one per delete (each deletes something). */
  static int javelinCommits(int batches) {
    int n = 2 * batches;
    for (int b = 0; b < batches; b++) {
      if (wideDeleteAfter(b)) {
        n++;
      }
    }
    return n;
  }

  static VectorSchemaRoot batch(BufferAllocator a, int writer, int batch, int rows) {
    VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, a);
    root.allocateNew();
    BigIntVector id = (BigIntVector) root.getVector("id");
    IntVector w = (IntVector) root.getVector("writer");
    VarCharVector s = (VarCharVector) root.getVector("s");
    for (int i = 0; i < rows; i++) {
      long v = writer * STRIDE + (long) batch * rows + i;
      id.setSafe(i, v);
      w.setSafe(i, writer);
      s.setSafe(i, ("w" + writer + "-" + v).getBytes(StandardCharsets.UTF_8));
    }
    root.setRowCount(rows);
    return root;
  }

  public static void main(String[] args) throws Exception {
    String impl = args[0];
    Path path = Path.of(args[1]);
    int writer = Integer.parseInt(args[2]);
    int batches = Integer.parseInt(args[3]);
    int rows = Integer.parseInt(args[4]);
    Path go = path.resolveSibling("go");
    Files.createFile(path.resolveSibling("ready-" + writer));
    long deadline = System.nanoTime() + 120_000_000_000L;
    while (!Files.exists(go)) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("No go signal at " + go);
      }
      Thread.sleep(2);
    }
    try (BufferAllocator a = new RootAllocator()) {
      Dataset ds = impl.equals("javelin") ? Dataset.open(path, a) : null;
      for (int b = 0; b < batches; b++) {
        try (VectorSchemaRoot data = batch(a, writer, b, rows)) {
          if (ds != null) {
            ds = ds.append(List.of(data), WriteParams.defaults());
          } else {
            try (ArrowReader r = readerOf(a, data)) {
              org.lance.Dataset.write().allocator(a).reader(r).uri(path.toString())
                  .mode(org.lance.WriteParams.WriteMode.APPEND).execute().close();
            }
          }
        }
        if (ds != null) {
          ds = ds.delete(batchDelete(writer, b, rows));
          if (wideDeleteAfter(b)) {
            ds = ds.delete(wideDelete(writer, b, rows));
          }
        }
      }
    }
    System.out.println("writer " + writer + " done");
  }

  private static ArrowReader readerOf(BufferAllocator a, VectorSchemaRoot data) {
    return Readers.readerOf(a, SCHEMA, List.of(data));
  }
}
