package dev.javelin.index.internal.btree;

import dev.javelin.format.LanceFileWriter;
import dev.javelin.format.WriteOptions;
import dev.javelin.io.OutputFile;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Receives sorted (value, row address) rows one at a time and writes the two BTree files: pages of
 * {@code batchSize} rows to {@code page_data.lance}, and one lookup row per page (first value,
 * last value, null count, page number) to {@code page_lookup.lance}.
 */
final class PageSink implements AutoCloseable {
  static final String PAGE_DATA = "page_data.lance";
  static final String PAGE_LOOKUP = "page_lookup.lance";
  // Small file pages, so a query that needs one index page reads about that page only.
  static final long FILE_PAGE_BYTES = 256 << 10;

  private final BufferAllocator allocator;
  private final Field valueField;
  private final int batchSize;
  private final OutputFile lookupOut;
  private final LanceFileWriter data;
  private final VectorSchemaRoot page;
  private final FieldVector pageValues;
  private final UInt8Vector pageIds;
  private final VectorSchemaRoot lookup;
  private int rows;
  private int pages;
  private int nulls;

  PageSink(Field valueField, int batchSize, OutputFile dataOut, OutputFile lookupOut, BufferAllocator allocator)
      throws IOException {
    this.allocator = allocator;
    this.valueField = valueField;
    this.batchSize = batchSize;
    this.lookupOut = lookupOut;
    this.page = VectorSchemaRoot.create(dataSchema(valueField), allocator);
    this.pageValues = page.getVector(0);
    this.pageIds = (UInt8Vector) page.getVector(1);
    this.lookup = VectorSchemaRoot.create(lookupSchema(valueField, batchSize), allocator);
    this.data = LanceFileWriter.create(dataOut, page.getSchema(),
        WriteOptions.builder().maxPageBytes(FILE_PAGE_BYTES).build());
  }

  /** {@code values:T (nullable), ids:uint64}. */
  static Schema dataSchema(Field valueField) {
    return new Schema(List.of(
        new Field("values", FieldType.nullable(valueField.getType()), null),
        new Field("ids", FieldType.notNullable(new ArrowType.Int(64, false)), null)));
  }

  static Schema lookupSchema(Field valueField, int batchSize) {
    return new Schema(List.of(
        new Field("min", FieldType.nullable(valueField.getType()), null),
        new Field("max", FieldType.nullable(valueField.getType()), null),
        new Field("null_count", FieldType.notNullable(new ArrowType.Int(32, false)), null),
        new Field("page_idx", FieldType.notNullable(new ArrowType.Int(32, false)), null)),
        Map.of("batch_size", Integer.toString(batchSize), "range_partitioned", "false"));
  }

  Field valueField() {
    return valueField;
  }

  void add(ValueVector values, int index, long id) throws IOException {
    pageValues.copyFromSafe(index, rows, values);
    pageIds.setSafe(rows, id);
    if (values.isNull(index)) {
      nulls++;
    }
    if (++rows == batchSize) {
      flushPage();
    }
  }

  private void flushPage() throws IOException {
    page.setRowCount(rows);
    data.write(page);
    int at = pages;
    lookup.getVector(0).copyFromSafe(0, at, pageValues);
    lookup.getVector(1).copyFromSafe(rows - 1, at, pageValues);
    ((UInt4Vector) lookup.getVector(2)).setSafe(at, nulls);
    ((UInt4Vector) lookup.getVector(3)).setSafe(at, at);
    pages++;
    rows = 0;
    nulls = 0;
    page.clear();
    page.allocateNew();
  }

  /** Writes the last partial page and the lookup file. */
  void finish() throws IOException {
    if (rows > 0) {
      flushPage();
    }
    data.close();
    lookup.setRowCount(pages);
    try (LanceFileWriter w = LanceFileWriter.create(lookupOut, lookup.getSchema(), WriteOptions.defaults())) {
      if (pages > 0) {
        w.write(lookup);
      }
    }
  }

  /** Removes a partial page_data file (after a failure). */
  void abort() {
    data.abort();
  }

  @Override
  public void close() {
    page.close();
    lookup.close();
  }
}
