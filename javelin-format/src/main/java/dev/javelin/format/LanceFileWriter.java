package dev.javelin.format;

import dev.javelin.format.WriteOptions;
import dev.javelin.format.exceptions.UnsupportedFormatException;
import dev.javelin.format.internal.container.ContainerWriter;
import dev.javelin.format.internal.encoding.EncodingStrategy;
import dev.javelin.format.internal.encoding.FieldEncoder;
import dev.javelin.format.proto.File2Protos.ColumnMetadata;
import dev.javelin.format.proto.FileProtos.FileDescriptor;
import dev.javelin.format.schema.LanceField;
import dev.javelin.format.schema.LanceSchema;
import dev.javelin.io.LocalOutputFile;
import dev.javelin.io.OutputFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Writes one Lance file from Arrow batches.
 *
 * <pre>{@code
 * try (LanceFileWriter w = LanceFileWriter.create(path, root.getSchema(), WriteOptions.defaults())) {
 *   w.write(root);
 * }
 * }</pre>
 *
 * <p>{@link #close()} finishes the file (writes metadata and footer). If a write fails, call
 * {@link #abort()}, which removes the partial file; close after abort does nothing.
 */
public final class LanceFileWriter implements AutoCloseable {
  private final OutputFile output;
  private final LanceSchema schema;
  private final Schema arrowSchema;
  private final WriteOptions options;
  private final ContainerWriter container;
  private final List<FieldEncoder> encoders = new ArrayList<>();
  private final List<int[]> fieldColumns = new ArrayList<>();
  private final List<long[]> globalBuffers = new ArrayList<>();
  private final boolean encodeApart;
  private ColumnPool pool;
  private long rows;
  private boolean closed;

  private LanceFileWriter(OutputFile output, LanceSchema schema, WriteOptions options) throws IOException {
    this.output = output;
    this.schema = schema;
    this.arrowSchema = schema.toArrow();
    this.options = options = withPagesForHeap(options, schema, Runtime.getRuntime().maxMemory());
    EncodingStrategy strategy = EncodingStrategy.forVersion(options.version());
    if (options.version() != LanceFileVersion.V2_2) {
      requireNoMap(output, schema.fields(), options.version());
    }
    int column = 0;
    for (LanceField f : schema.fields()) {
      encoders.add(strategy.newEncoder(f, options));
      column = mapColumns(f, column);
    }
    this.container = new ContainerWriter(output);
    boolean apart = options.parallelism() > 1 && encoders.size() > 1;
    for (FieldEncoder e : encoders) {
      apart &= e.canEncodeApart();
    }
    this.encodeApart = apart;
  }

  /** The smallest page size a small heap shrinks pages to. */
  static final long MIN_PAGE_BYTES = 64 << 10;

  /**
   * The options with pages no larger than a heap of {@code maxHeap} bytes holds for every leaf
   * column at once: each buffers up to a page (and about as much again while it encodes one), so
   * the pages of all columns together are kept within an eighth of the heap. A large heap keeps the
   * asked-for size; a small one writes smaller pages rather than running out of memory.
   */
  static WriteOptions withPagesForHeap(WriteOptions options, LanceSchema schema, long maxHeap) {
    long leaves = 0;
    for (LanceField top : schema.fields()) {
      for (LanceField f : top.flatten()) {
        if (f.children().isEmpty()) {
          leaves++;
        }
      }
    }
    long perColumn = maxHeap / 8 / Math.max(1, leaves);
    long bytes = Math.max(MIN_PAGE_BYTES, Math.min(options.maxPageBytes(), perColumn));
    return bytes >= options.maxPageBytes() ? options : options.toBuilder().maxPageBytes(bytes).build();
  }

  // Maps exist from format 2.2 on; lance-core 7.0.0 refuses them in 2.0 and 2.1 files too.
  private static void requireNoMap(OutputFile output, List<LanceField> fields, LanceFileVersion version) {
    for (LanceField top : fields) {
      for (LanceField f : top.flatten()) {
        if (f.isMap()) {
          throw new UnsupportedFormatException(output.location(), "Map field '" + f.name()
              + "' needs Lance file format 2.2 or later; this file is " + version);
        }
      }
    }
  }

  // Records (field id, column index) the way Lance does: pre-order, −1 for fields with no column.
  private int mapColumns(LanceField f, int column) {
    boolean hasColumn = options.version() == LanceFileVersion.V2_0 || !(f.isStruct() || f.isList());
    fieldColumns.add(new int[] {f.id(), hasColumn ? column : -1});
    int next = hasColumn ? column + 1 : column;
    for (LanceField c : f.children()) {
      next = mapColumns(c, next);
    }
    return next;
  }

  /** Creates a file for an Arrow schema; fields get ids depth-first from 0. */
  public static LanceFileWriter create(OutputFile output, Schema schema, WriteOptions options) throws IOException {
    return create(output, LanceSchema.fromArrow(schema), options);
  }

  /** Creates a file for a Lance schema, keeping its field ids (what a dataset writer needs). */
  public static LanceFileWriter create(OutputFile output, LanceSchema schema, WriteOptions options) throws IOException {
    return new LanceFileWriter(output, schema, options);
  }

  /** Creates a file at a local path; fails if the path exists. */
  public static LanceFileWriter create(Path path, Schema schema, WriteOptions options) throws IOException {
    return create(new LocalOutputFile(path), schema, options);
  }

  public LanceSchema schema() {
    return schema;
  }

  public LanceFileVersion version() {
    return options.version();
  }

  /** Rows written so far. */
  public long numRows() {
    return rows;
  }

  /**
   * The (field id, column index) pairs of the file, pre-order; the column index is −1 for a field
   * with no column of its own (2.1 structs and lists). This is what a dataset's data file records.
   */
  public List<int[]> fieldColumnIndices() {
    List<int[]> out = new ArrayList<>();
    for (int[] p : fieldColumns) {
      out.add(p.clone());
    }
    return out;
  }

  /**
   * Writes a batch. Its fields must match the file's schema by name and type, in order.
   *
   * @throws IllegalArgumentException if the batch's schema does not match
   */
  public void write(VectorSchemaRoot batch) throws IOException {
    checkOpen();
    List<Field> expected = arrowSchema.getFields();
    List<FieldVector> vectors = batch.getFieldVectors();
    if (vectors.size() != expected.size()) {
      throw new IllegalArgumentException("Batch has " + vectors.size() + " columns but the file's schema has "
          + expected.size() + ": " + output.location());
    }
    for (int i = 0; i < expected.size(); i++) {
      Field want = expected.get(i);
      Field got = vectors.get(i).getField();
      if (!sameShape(want, got)) {
        throw new IllegalArgumentException("Batch column " + i + " is " + got + " but the file's schema has "
            + want + ": " + output.location());
      }
    }
    if (encodeApart) {
      // Fields are encoded concurrently, then their pages written in field order: the same bytes
      // as appending field by field.
      long[] cost = new long[vectors.size()];
      for (int i = 0; i < cost.length; i++) {
        cost[i] = vectors.get(i).getBufferSize();
      }
      pool().run(cost, i -> encoders.get(i).encode(vectors.get(i)));
      for (FieldEncoder e : encoders) {
        e.writePending(container);
      }
    } else {
      for (int i = 0; i < vectors.size(); i++) {
        encoders.get(i).append(vectors.get(i), container);
      }
    }
    rows += batch.getRowCount();
  }

  /**
   * Writes a global buffer (index metadata such as tensors) now and returns its index; the schema
   * is buffer 0, so the first added buffer is 1.
   */
  public int addGlobalBuffer(ByteBuffer data) throws IOException {
    checkOpen();
    long at = container.write(data);
    globalBuffers.add(new long[] {at, data.remaining()});
    return globalBuffers.size();
  }

  private ColumnPool pool() {
    if (pool == null) {
      pool = new ColumnPool(Math.min(options.parallelism(), encoders.size()));
    }
    return pool;
  }

  private static boolean sameShape(Field want, Field got) {
    if (!want.getName().equals(got.getName()) || !want.getType().equals(got.getType())
        || want.getChildren().size() != got.getChildren().size()) {
      return false;
    }
    for (int i = 0; i < want.getChildren().size(); i++) {
      Field w = want.getChildren().get(i);
      Field g = got.getChildren().get(i);
      // A list's item name is not part of its type: Arrow Java calls it "$data$", others "item"
      // or "element" (a map's entries, "entries" or "key_value"). The item of a fixed-size list
      // has no Lance field, so its name is not kept.
      ArrowType.ArrowTypeID t = want.getType().getTypeID();
      boolean item = t == ArrowType.ArrowTypeID.List || t == ArrowType.ArrowTypeID.LargeList
          || t == ArrowType.ArrowTypeID.FixedSizeList || t == ArrowType.ArrowTypeID.Map;
      if (item ? !sameShape(renamed(w, g.getName()), g) : !sameShape(w, g)) {
        return false;
      }
    }
    return true;
  }

  private static Field renamed(Field f, String name) {
    return new Field(name, f.getFieldType(), f.getChildren());
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("Writer is closed: " + output.location());
    }
  }

  /** Finishes the file: flushes pages, writes column metadata, the schema and the footer. */
  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    try {
      if (encodeApart) {
        pool().run(new long[encoders.size()], i -> encoders.get(i).encodeRest());
      }
      List<ColumnMetadata> columns = new ArrayList<>();
      for (FieldEncoder e : encoders) {
        columns.addAll(e.finish(container));
      }
      FileDescriptor fd = FileDescriptor.newBuilder().setSchema(schema.toProto()).setLength(rows).build();
      container.finish(columns, fd.toByteArray(), globalBuffers, options.version());
      closed = true;
    } catch (IOException | RuntimeException | Error e) {
      try {
        abort();
      } catch (RuntimeException cleanup) {
        // The write's failure is what the caller must see; the failed cleanup goes along with it.
        e.addSuppressed(cleanup);
      }
      throw e;
    } finally {
      closePool();
    }
  }

  /**
   * The file's size in bytes once {@link #close} finished it.
   *
   * @throws IllegalStateException before that
   */
  public long fileSize() {
    return container.length();
  }

  /** Stops writing and removes the partial file. Safe to call more than once. */
  public void abort() {
    closed = true;
    closePool();
    try {
      container.abort();
    } catch (IOException e) {
      throw new UncheckedIOException("Could not remove partial file " + output.location(), e);
    }
  }

  private void closePool() {
    if (pool != null) {
      pool.close();
      pool = null;
    }
  }
}
