package dev.javelin.table.rowmap;

import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.LanceFileWriter;
import dev.javelin.format.WriteOptions;
import dev.javelin.io.ObjectStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Streams a row map file: one label per source physical row, in source order, naming the row's
 * destination ({@code 0..m-1}) or {@link #DELETED} for a row deleted at rewrite time. The file is
 * a Lance file at {@code _indices/<uuid>/row_map.lance} with one nullable UInt16 column
 * {@code label} and a {@link RowMapSummary} in a global buffer.
 *
 * <p>{@link #finish()} completes the file and returns its summary; {@link #close()} without
 * {@code finish()} (a failure in between) removes the partial file, so use try-with-resources.
 */
public final class RowMapWriter implements AutoCloseable {
  /** The label of a deleted row (stored as null). */
  public static final int DELETED = -1;
  /** The largest number of destinations a row map can name (labels are UInt16). */
  public static final int MAX_DESTINATIONS = 1 << 16;

  static final String COLUMN = "label";
  // Schema metadata naming the global buffer that holds the summary.
  static final String SUMMARY_KEY = "javelin:row_map_summary";
  private static final int BATCH = 1 << 16;

  private final String path;
  private final LanceFileWriter writer;
  private final VectorSchemaRoot root;
  private final UInt2Vector labels;
  private final long[] totals;
  private long rows;
  private long deleted;
  private int pending;
  private boolean done;

  private RowMapWriter(String path, LanceFileWriter writer, VectorSchemaRoot root, int destinations) {
    this.path = path;
    this.writer = writer;
    this.root = root;
    this.labels = (UInt2Vector) root.getVector(0);
    this.totals = new long[destinations];
    labels.allocateNew(BATCH);
  }

  /**
   * Starts a row map under a new uuid in {@code _indices/}.
   *
   * @param destinations the number of destinations m (1 to {@link #MAX_DESTINATIONS})
   * @param version the dataset's file version
   */
  public static RowMapWriter create(ObjectStore store, int destinations, LanceFileVersion version,
      BufferAllocator allocator) throws IOException {
    return create(store, "_indices/" + UUID.randomUUID(), destinations, version, allocator);
  }

  /**
   * Starts a row map in {@code directory} (the stable partition entry's:
   * {@code StablePartitionEntry.directory(StablePartition.entryUuidFor(manifest))}), under a new name.
   */
  public static RowMapWriter create(ObjectStore store, String directory, int destinations, LanceFileVersion version,
      BufferAllocator allocator) throws IOException {
    if (destinations < 1 || destinations > MAX_DESTINATIONS) {
      throw new IllegalArgumentException("A row map names 1 to " + MAX_DESTINATIONS + " destinations, not "
          + destinations);
    }
    String path = directory + "/row_map-" + UUID.randomUUID() + ".lance";
    Schema schema = new Schema(List.of(Field.nullable(COLUMN, new ArrowType.Int(16, false))),
        Map.of(SUMMARY_KEY, "1"));
    LanceFileWriter w = LanceFileWriter.create(store.newOutputFile(path), schema,
        WriteOptions.builder().version(version).build());
    VectorSchemaRoot root = null;
    try {
      root = VectorSchemaRoot.create(schema, allocator);
      return new RowMapWriter(path, w, root, destinations);
    } catch (RuntimeException e) {
      if (root != null) {
        root.close();
      }
      w.abort();
      throw e;
    }
  }

  /** The file's key, relative to the dataset root (what a transition records). */
  public String path() {
    return path;
  }

  /** Appends the label of the next source row: its destination index. */
  public void append(int label) throws IOException {
    if (label < 0 || label >= totals.length) {
      throw new IllegalArgumentException("Label " + label + " of row " + rows + " is not a destination (0 to "
          + (totals.length - 1) + ") of " + path);
    }
    checkOpen();
    labels.set(pending++, label);
    totals[label]++;
    rows++;
    flushIfFull();
  }

  /** Appends a deleted source row (a null label). */
  public void appendDeleted() throws IOException {
    checkOpen();
    labels.setNull(pending++);
    deleted++;
    rows++;
    flushIfFull();
  }

  /** Appends {@code len} labels from {@code src[off..]}; {@link #DELETED} marks a deleted row. */
  public void append(int[] src, int off, int len) throws IOException {
    for (int i = off; i < off + len; i++) {
      if (src[i] == DELETED) {
        appendDeleted();
      } else {
        append(src[i]);
      }
    }
  }

  /** Labels appended so far. */
  public long rows() {
    return rows;
  }

  /** Completes the file: writes the remaining labels and the summary. */
  public RowMapSummary finish() throws IOException {
    checkOpen();
    try {
      flush();
      RowMapSummary s = new RowMapSummary(rows, deleted, totals);
      writer.addGlobalBuffer(ByteBuffer.wrap(s.toProto().toByteArray()));
      writer.close();
      done = true;
      root.close();
      return s;
    } catch (IOException | RuntimeException e) {
      close();
      throw e;
    }
  }

  /** Releases memory; removes the file unless {@link #finish()} completed it. */
  @Override
  public void close() {
    if (done) {
      return;
    }
    done = true;
    root.close();
    try {
      writer.abort();
    } catch (UncheckedIOException e) {
      // The partial file stays; cleanup removes unreferenced index files later.
    }
  }

  private void flushIfFull() throws IOException {
    if (pending == BATCH) {
      flush();
    }
  }

  private void flush() throws IOException {
    if (pending == 0) {
      return;
    }
    labels.setValueCount(pending);
    root.setRowCount(pending);
    try {
      writer.write(root);
    } catch (IOException | RuntimeException e) {
      close();
      throw e;
    }
    pending = 0;
    labels.reset();
  }

  private void checkOpen() {
    if (done) {
      throw new IllegalStateException("Row map writer is closed: " + path);
    }
  }
}
