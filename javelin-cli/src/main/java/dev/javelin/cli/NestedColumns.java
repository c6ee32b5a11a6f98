package dev.javelin.cli;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The columns of a scan as {@code --columns} names them, nested fields of structs included
 * ("address.city", a column of that name, null where the field or a struct above it is null):
 * the scan reads the top-level columns, and this reader picks the fields out of each batch.
 */
final class NestedColumns extends ArrowReader {
  private final ArrowReader scan;
  private final List<List<String>> paths;
  private final Schema schema;

  private NestedColumns(ArrowReader scan, List<List<String>> paths, Schema schema, BufferAllocator allocator) {
    super(allocator);
    this.scan = scan;
    this.paths = paths;
    this.schema = schema;
  }

  /** The top-level columns a scan must read for these names (each once, in order). */
  static List<String> topLevel(List<String> names) {
    Set<String> out = new LinkedHashSet<>();
    for (String n : names) {
      int dot = n.indexOf('.');
      out.add(dot < 0 ? n : n.substring(0, dot));
    }
    return new ArrayList<>(out);
  }

  /**
   * Wraps a scan of {@link #topLevel} columns.
   *
   * @param split each name as its path of field names ("address.city" as [address, city])
   */
  static NestedColumns of(ArrowReader scan, List<String> names, List<List<String>> split, BufferAllocator allocator)
      throws IOException {
    Schema in = scan.getVectorSchemaRoot().getSchema();
    List<Field> fields = new ArrayList<>();
    for (int i = 0; i < names.size(); i++) {
      Field f = in.findField(split.get(i).get(0));
      for (String child : split.get(i).subList(1, split.get(i).size())) {
        Field next = null;
        for (Field c : f.getChildren()) {
          if (c.getName().equals(child)) {
            next = c;
          }
        }
        f = next;
      }
      // Nullable: a null struct above makes the field null even if it is declared not null.
      fields.add(new Field(names.get(i), split.get(i).size() > 1 ? new FieldType(true, f.getType(), f.getDictionary(),
          f.getMetadata()) : f.getFieldType(), f.getChildren()));
    }
    return new NestedColumns(scan, split, new Schema(fields), allocator);
  }

  @Override
  protected Schema readSchema() {
    return schema;
  }

  @Override
  public boolean loadNextBatch() throws IOException {
    prepareLoadNextBatch();
    if (!scan.loadNextBatch()) {
      return false;
    }
    VectorSchemaRoot in = scan.getVectorSchemaRoot();
    VectorSchemaRoot out = getVectorSchemaRoot();
    int rows = in.getRowCount();
    out.allocateNew();
    for (int c = 0; c < paths.size(); c++) {
      List<String> path = paths.get(c);
      FieldVector target = out.getVector(c);
      FieldVector top = in.getVector(path.get(0));
      for (int r = 0; r < rows; r++) {
        FieldVector v = top;
        boolean isNull = v.isNull(r);
        for (int d = 1; d < path.size() && !isNull; d++) {
          v = (FieldVector) ((StructVector) v).getChild(path.get(d));
          isNull = v.isNull(r);
        }
        if (isNull) {
          VectorValues.setNull(target, r);
        } else {
          target.copyFromSafe(r, r, v);
        }
      }
      target.setValueCount(rows);
    }
    out.setRowCount(rows);
    return true;
  }

  @Override
  public long bytesRead() {
    return scan.bytesRead();
  }

  @Override
  protected void closeReadSource() throws IOException {
    scan.close();
  }
}
