package dev.javelin.index.internal.ngram;

import dev.javelin.format.LanceFileWriter;
import dev.javelin.format.WriteOptions;
import dev.javelin.index.RowAddressMap;
import dev.javelin.io.ObjectStore;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongPredicate;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.roaringbitmap.longlong.LongIterator;
import org.roaringbitmap.longlong.Roaring64NavigableMap;

/**
 * Collects (text, row address) pairs and writes an n-gram index's file: one row per token in
 * ascending order with the serialized set of rows whose text holds it (null texts add nothing).
 */
public final class NGramWriter implements AutoCloseable {
  // Tokens per written batch: bounds one batch's binary column.
  private static final int TOKENS_PER_BATCH = 256;
  static final Schema SCHEMA = new Schema(List.of(
      new Field("tokens", FieldType.nullable(new ArrowType.Int(32, false)), null),
      new Field("posting_list", FieldType.notNullable(ArrowType.Binary.INSTANCE), null)));

  private final BufferAllocator allocator;
  private final TreeMap<Integer, Roaring64NavigableMap> byToken = new TreeMap<>();
  private long rows;

  public NGramWriter(BufferAllocator allocator) {
    this.allocator = allocator;
  }

  /**
   * Adds {@code n} rows of a string column with their row addresses.
   *
   * @throws IllegalArgumentException if {@code texts} is not a string vector
   */
  public void add(FieldVector texts, long[] addresses, int n) {
    for (int i = 0; i < n; i++) {
      if (texts.isNull(i)) {
        continue;
      }
      byte[] bytes;
      if (texts instanceof VarCharVector s) {
        bytes = s.get(i);
      } else if (texts instanceof LargeVarCharVector s) {
        bytes = s.get(i);
      } else {
        throw new IllegalArgumentException("An n-gram index takes a string column, not " + texts.getField());
      }
      long address = addresses[i];
      NGramTokens.ofText(new String(bytes, StandardCharsets.UTF_8),
          token -> byToken.computeIfAbsent(token, k -> new Roaring64NavigableMap()).addLong(address));
    }
    rows += n;
  }

  /**
   * Adds the rows of {@code rows} that {@code keep} accepts as holding {@code token} (an existing
   * index's entry carried over).
   *
   * @return how many it did not accept
   */
  public long addAll(int token, Roaring64NavigableMap rows, LongPredicate keep) {
    Roaring64NavigableMap set = byToken.computeIfAbsent(token, k -> new Roaring64NavigableMap());
    long dropped = 0;
    LongIterator it = rows.getLongIterator();
    while (it.hasNext()) {
      long address = it.next();
      if (keep.test(address)) {
        set.addLong(address);
      } else {
        dropped++;
      }
    }
    if (set.isEmpty()) {
      byToken.remove(token);
    }
    return dropped;
  }

  /**
   * Writes a copy of the n-gram index in {@code from}'s {@code oldDirectory} to {@code to}'s
   * {@code newDirectory} with every row at the address {@code map} gives it (deleted rows left out).
   *
   * @return the new file's size in bytes
   * @throws IOException if the old file cannot be read or the new one written
   */
  public static long remap(ObjectStore from, String oldDirectory, ObjectStore to, String newDirectory,
      RowAddressMap map, BufferAllocator allocator) throws IOException {
    try (NGramWriter w = new NGramWriter(allocator)) {
      NGramIndex.scan(from, oldDirectory, allocator, (token, rows) -> {
        Roaring64NavigableMap moved = new Roaring64NavigableMap();
        rows.forEach(a -> {
          long address = map.map(a);
          if (address != RowAddressMap.DELETED) {
            moved.addLong(address);
          }
        });
        if (!moved.isEmpty()) {
          w.byToken.merge(token, moved, (a, b) -> {
            a.or(b);
            return a;
          });
        }
      });
      return w.write(to, newDirectory);
    }
  }

  /** Rows added by {@link #add} (null texts included). */
  public long rows() {
    return rows;
  }

  /**
   * Writes {@code directory/ngram_postings.lance} in {@code store}.
   *
   * @return the file's size in bytes
   */
  public long write(ObjectStore store, String directory) throws IOException {
    LanceFileWriter w = LanceFileWriter.create(store.newOutputFile(directory + "/" + NGramIndex.FILE_NAME), SCHEMA,
        WriteOptions.defaults());
    try (w; VectorSchemaRoot batch = VectorSchemaRoot.create(SCHEMA, allocator)) {
      batch.allocateNew();
      int n = 0;
      for (Map.Entry<Integer, Roaring64NavigableMap> e : byToken.entrySet()) {
        ((UInt4Vector) batch.getVector(0)).setSafe(n, e.getKey());
        ((VarBinaryVector) batch.getVector(1)).setSafe(n, serialize(e.getValue()));
        if (++n == TOKENS_PER_BATCH) {
          batch.setRowCount(n);
          w.write(batch);
          batch.clear();
          batch.allocateNew();
          n = 0;
        }
      }
      if (n > 0) {
        batch.setRowCount(n);
        w.write(batch);
      }
    }
    return w.fileSize();
  }

  private static byte[] serialize(Roaring64NavigableMap rows) throws IOException {
    rows.runOptimize();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      rows.serializePortable(out);
    }
    return bytes.toByteArray();
  }

  @Override
  public void close() {
    byToken.clear();
  }
}
