package dev.javelin.compat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Rows held as a list of batches, with row lookup across them. Batches are moved out of readers by
 * buffer transfer, never copied value by value: Arrow Java's {@code copyFromSafe} cannot copy every
 * nested type (a list of time-zoned timestamps, of fixed-size lists, of large lists), and a test
 * helper must not limit what is tested. Owns its batches.
 */
final class Table implements AutoCloseable {
  private final Schema schema;
  private final List<VectorSchemaRoot> batches;
  private final int[] starts;
  private final int rows;

  private Table(Schema schema, List<VectorSchemaRoot> batches) {
    this.schema = schema;
    this.batches = batches;
    this.starts = new int[batches.size()];
    int n = 0;
    for (int i = 0; i < batches.size(); i++) {
      starts[i] = n;
      n += batches.get(i).getRowCount();
    }
    this.rows = n;
  }

  /** A table of one root, which the table now owns. */
  static Table of(VectorSchemaRoot root) {
    List<VectorSchemaRoot> list = new ArrayList<>();
    list.add(root);
    return new Table(root.getSchema(), list);
  }

  /**
   * Moves every batch the reader yields into a new table. The reader stays open; its owner closes
   * it.
   */
  static Table drain(ArrowReader reader, BufferAllocator allocator) throws IOException {
    List<VectorSchemaRoot> out = new ArrayList<>();
    try {
      VectorSchemaRoot src = reader.getVectorSchemaRoot();
      Schema schema = src.getSchema();
      while (reader.loadNextBatch()) {
        List<FieldVector> vectors = new ArrayList<>();
        List<Field> fields = new ArrayList<>();
        for (FieldVector v : src.getFieldVectors()) {
          FieldVector to = move(v, allocator);
          vectors.add(to);
          fields.add(to.getField());
        }
        out.add(new VectorSchemaRoot(fields, vectors, src.getRowCount()));
      }
      return new Table(schema, out);
    } catch (IOException | RuntimeException e) {
      closeAll(out);
      throw e;
    }
  }

  Schema schema() {
    return schema;
  }

  int rowCount() {
    return rows;
  }

  int columnCount() {
    return schema.getFields().size();
  }

  List<VectorSchemaRoot> batches() {
    return batches;
  }

  /** The value of a column at a row, as {@code getObject} gives it. */
  Object getObject(int column, int row) {
    if (row < 0 || row >= rows) {
      throw new IndexOutOfBoundsException("Row " + row + " of a table of " + rows);
    }
    int b = java.util.Arrays.binarySearch(starts, row);
    if (b < 0) {
      b = -b - 2;
    }
    // Empty batches share a start with the next batch; move to the one that holds the row.
    while (batches.get(b).getRowCount() <= row - starts[b]) {
      b++;
    }
    return batches.get(b).getVector(column).getObject(row - starts[b]);
  }

  /** The index of a column by name, or −1. */
  int columnIndex(String name) {
    List<Field> fields = schema.getFields();
    for (int i = 0; i < fields.size(); i++) {
      if (fields.get(i).getName().equals(name)) {
        return i;
      }
    }
    return -1;
  }

  /**
   * Cuts a root into consecutive slices of at most {@code batchRows} rows; the caller closes them.
   * An empty root gives one empty slice, so a writer still sees the schema.
   */
  static List<VectorSchemaRoot> slices(VectorSchemaRoot root, int batchRows) {
    List<VectorSchemaRoot> out = new ArrayList<>();
    try {
      int n = root.getRowCount();
      if (n == 0) {
        out.add(slice(root, 0, 0));
        return out;
      }
      for (int start = 0; start < n; start += batchRows) {
        out.add(slice(root, start, Math.min(batchRows, n - start)));
      }
      return out;
    } catch (RuntimeException e) {
      closeAll(out);
      throw e;
    }
  }

  /**
   * Rows [start, start + length) of a root, copied by buffer transfer into vectors made from the
   * root's own fields. Unlike {@code VectorSchemaRoot.slice}, list items keep their names (Arrow's
   * own transfer renames them "$data$").
   */
  static VectorSchemaRoot slice(VectorSchemaRoot root, int start, int length) {
    List<FieldVector> vectors = new ArrayList<>();
    try {
      for (FieldVector v : root.getFieldVectors()) {
        FieldVector to = v.getField().createVector(v.getAllocator());
        vectors.add(to);
        v.makeTransferPair(to).splitAndTransfer(start, length);
      }
      return new VectorSchemaRoot(root.getSchema().getFields(), vectors, length);
    } catch (RuntimeException e) {
      vectors.forEach(FieldVector::close);
      throw e;
    }
  }

  // Moves a vector's buffers into a new vector of the same field, keeping child names.
  private static FieldVector move(FieldVector v, BufferAllocator allocator) {
    FieldVector to = v.getField().createVector(allocator);
    try {
      v.makeTransferPair(to).transfer();
      return to;
    } catch (RuntimeException e) {
      to.close();
      throw e;
    }
  }

  static void closeAll(List<VectorSchemaRoot> roots) {
    try {
      AutoCloseables.close(roots);
    } catch (Exception e) {
      throw new IllegalStateException("Could not close batches", e);
    }
  }

  @Override
  public void close() {
    closeAll(batches);
  }
}
