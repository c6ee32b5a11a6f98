package dev.javelin.format.internal.v21;

import dev.javelin.format.LanceFileReader;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.LanceFileWriter;
import dev.javelin.format.ReadOptions;
import dev.javelin.format.WriteOptions;
import dev.javelin.io.LocalOutputFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.util.Text;

/** Helpers shared by the 2.1 tests: write a root, read everything back, compare by value. */
final class V21Fixtures {
  private V21Fixtures() {}

  static WriteOptions v21() {
    return WriteOptions.builder().version(LanceFileVersion.V2_1).build();
  }

  static WriteOptions v21(long maxPageBytes) {
    return WriteOptions.builder().version(LanceFileVersion.V2_1).maxPageBytes(maxPageBytes).build();
  }

  static Path write(Path file, WriteOptions options, VectorSchemaRoot... batches) throws IOException {
    try (LanceFileWriter w = LanceFileWriter.create(new LocalOutputFile(file), schemaOf(batches[0]), options)) {
      for (VectorSchemaRoot b : batches) {
        w.write(b);
      }
    }
    return file;
  }

  /**
   * The schema the root's vectors actually have: Arrow Java names list children "$data$" whatever
   * the schema said, and the writer checks names.
   */
  static org.apache.arrow.vector.types.pojo.Schema schemaOf(VectorSchemaRoot root) {
    List<org.apache.arrow.vector.types.pojo.Field> fields = new ArrayList<>();
    for (FieldVector v : root.getFieldVectors()) {
      fields.add(v.getField());
    }
    return new org.apache.arrow.vector.types.pojo.Schema(fields);
  }

  /** Every column's values, row by row, as plain Java values. */
  static List<List<Object>> rows(VectorSchemaRoot root) {
    List<List<Object>> out = new ArrayList<>();
    for (int r = 0; r < root.getRowCount(); r++) {
      List<Object> row = new ArrayList<>();
      for (FieldVector v : root.getFieldVectors()) {
        row.add(plain(v.getObject(r)));
      }
      out.add(row);
    }
    return out;
  }

  static List<List<Object>> readAll(BufferAllocator a, Path file, int batchSize) throws IOException {
    List<List<Object>> out = new ArrayList<>();
    try (LanceFileReader r = LanceFileReader.open(file, a);
        ArrowReader batches = r.read(ReadOptions.builder().batchSize(batchSize).build())) {
      while (batches.loadNextBatch()) {
        out.addAll(rows(batches.getVectorSchemaRoot()));
      }
    }
    return out;
  }

  /** Turns Arrow's getObject results into values with content equality. */
  static Object plain(Object o) {
    if (o == null) {
      return null;
    }
    if (o instanceof Text) {
      return o.toString();
    }
    if (o instanceof byte[]) {
      return "0x" + HexFormat.of().formatHex((byte[]) o);
    }
    if (o instanceof List) {
      List<Object> l = new ArrayList<>();
      for (Object x : (List<?>) o) {
        l.add(plain(x));
      }
      return l;
    }
    if (o instanceof Map) {
      Map<Object, Object> m = new LinkedHashMap<>();
      for (Map.Entry<?, ?> e : ((Map<?, ?>) o).entrySet()) {
        m.put(e.getKey(), plain(e.getValue()));
      }
      return m;
    }
    return o;
  }
}
