package dev.javelin.core.compaction;

import dev.javelin.core.Dataset;
import dev.javelin.core.WriteParams;
import dev.javelin.format.LanceFileVersion;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/** Small datasets for compaction tests: id (int64), s (utf8 "s{id}"), and backfilled int64 columns. */
final class Data {
  static final Schema BASE = new Schema(List.of(Field.nullable("id", new ArrowType.Int(64, true)),
      Field.nullable("s", ArrowType.Utf8.INSTANCE)));

  private Data() {}

  static VectorSchemaRoot batch(BufferAllocator a, long start, int n) {
    VectorSchemaRoot root = VectorSchemaRoot.create(BASE, a);
    root.allocateNew();
    BigIntVector id = (BigIntVector) root.getVector("id");
    VarCharVector s = (VarCharVector) root.getVector("s");
    for (int i = 0; i < n; i++) {
      id.setSafe(i, start + i);
      s.setSafe(i, ("s" + (start + i)).getBytes(StandardCharsets.UTF_8));
    }
    root.setRowCount(n);
    return root;
  }

  /** {@code rows} rows in fragments of {@code perFragment}. */
  static Dataset create(Path dir, BufferAllocator a, int rows, int perFragment, LanceFileVersion v) {
    List<VectorSchemaRoot> batches = new ArrayList<>();
    for (int s = 0; s < rows; s += perFragment) {
      batches.add(batch(a, s, Math.min(perFragment, rows - s)));
    }
    try {
      return Dataset.create(dir, batches, WriteParams.builder().fileVersion(v).maxRowsPerFile(perFragment).build(), a);
    } finally {
      batches.forEach(VectorSchemaRoot::close);
    }
  }

  /** Adds int64 column {@code name} = id * k: one more data file per fragment. */
  static Dataset backfill(Dataset ds, String name, long k) {
    Schema s = new Schema(List.of(Field.nullable(name, new ArrowType.Int(64, true))));
    return ds.addColumns(s, List.of("id"), in -> {
      VectorSchemaRoot out = VectorSchemaRoot.create(s, ds.allocator());
      out.allocateNew();
      BigIntVector id = (BigIntVector) in.getVector("id");
      BigIntVector v = (BigIntVector) out.getVector(0);
      for (int i = 0; i < in.getRowCount(); i++) {
        v.setSafe(i, id.get(i) * k);
      }
      out.setRowCount(in.getRowCount());
      return out;
    });
  }

  /** Every row (all columns, then the row address) as strings. */
  static List<List<String>> rows(Dataset ds) {
    List<List<String>> out = new ArrayList<>();
    try (ArrowReader r = ds.newScan().withRowAddress().build()) {
      VectorSchemaRoot root = r.getVectorSchemaRoot();
      while (r.loadNextBatch()) {
        for (int i = 0; i < root.getRowCount(); i++) {
          List<String> row = new ArrayList<>();
          for (FieldVector v : root.getFieldVectors()) {
            row.add(v instanceof UInt8Vector u ? Long.toString(u.get(i)) : String.valueOf(v.getObject(i)));
          }
          out.add(row);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  /** Rows without the row address (for rewrites, which move rows). */
  static List<List<String>> values(Dataset ds) {
    List<List<String>> out = new ArrayList<>();
    for (List<String> r : rows(ds)) {
      out.add(r.subList(0, r.size() - 1));
    }
    return out;
  }

  static List<Integer> fileCounts(Dataset ds) {
    List<Integer> out = new ArrayList<>();
    ds.columnLayoutStats().fragments().forEach(f -> out.add(f.dataFiles()));
    return out;
  }
}
