package dev.javelin.core.cluster;

import dev.javelin.core.Dataset;
import dev.javelin.core.WriteParams;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Datasets for clustering tests: id (int64, 0..n-1 in source order), a (int32 in 0..49, every
 * 13th null), x (int64 in 0..999), y (float64 in 0..1000), s (utf8 "k" + 3 digits).
 */
final class ClusterData {
  static final Schema SCHEMA = new Schema(List.of(
      Field.nullable("id", new ArrowType.Int(64, true)),
      Field.nullable("a", new ArrowType.Int(32, true)),
      Field.nullable("x", new ArrowType.Int(64, true)),
      Field.nullable("y", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
      Field.nullable("s", ArrowType.Utf8.INSTANCE)));

  private ClusterData() {}

  static Dataset create(Path dir, BufferAllocator a, int rows, int perFragment, boolean stableRowIds) {
    Random r = new Random(42);
    List<VectorSchemaRoot> batches = new ArrayList<>();
    try {
      for (int start = 0; start < rows; start += perFragment) {
        int n = Math.min(perFragment, rows - start);
        VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, a);
        batches.add(root);
        root.allocateNew();
        for (int i = 0; i < n; i++) {
          long id = start + i;
          ((BigIntVector) root.getVector("id")).setSafe(i, id);
          if (id % 13 == 5) {
            ((IntVector) root.getVector("a")).setNull(i);
          } else {
            ((IntVector) root.getVector("a")).setSafe(i, r.nextInt(50));
          }
          ((BigIntVector) root.getVector("x")).setSafe(i, r.nextInt(1000));
          ((Float8Vector) root.getVector("y")).setSafe(i, r.nextDouble() * 1000);
          ((VarCharVector) root.getVector("s")).setSafe(i,
              String.format("k%03d", r.nextInt(300)).getBytes(StandardCharsets.UTF_8));
        }
        root.setRowCount(n);
      }
      return Dataset.create(dir, batches, WriteParams.builder().maxRowsPerFile(perFragment)
          .enableStableRowIds(stableRowIds).build(), a);
    } finally {
      batches.forEach(VectorSchemaRoot::close);
    }
  }

  /** Deletes the rows whose id is 3 mod 7. */
  static Dataset deleteSome(Dataset ds) {
    List<Long> addrs = new ArrayList<>();
    for (Map<String, Object> row : rows(ds, null)) {
      if ((Long) row.get("id") % 7 == 3) {
        addrs.add((Long) row.get("_rowaddr"));
      }
    }
    return ds.deleteRows(addrs.stream().mapToLong(Long::longValue).toArray());
  }

  /** Every live row (of one fragment, or all when null) as column -> value, with _rowaddr and _rowid. */
  static List<Map<String, Object>> rows(Dataset ds, Long fragment) {
    List<Map<String, Object>> out = new ArrayList<>();
    var scan = ds.newScan().withRowId().withRowAddress();
    if (fragment != null) {
      scan.fragments(ds.manifest().fragments().stream().filter(f -> f.id() == fragment).toList());
    }
    try (ArrowReader r = scan.build()) {
      VectorSchemaRoot root = r.getVectorSchemaRoot();
      while (r.loadNextBatch()) {
        for (int i = 0; i < root.getRowCount(); i++) {
          Map<String, Object> row = new HashMap<>();
          for (FieldVector v : root.getFieldVectors()) {
            Object o = v instanceof UInt8Vector u ? Long.valueOf(u.get(i)) : v.getObject(i);
            row.put(v.getName(), o == null ? null : o instanceof org.apache.arrow.vector.util.Text t ? t.toString() : o);
          }
          out.add(row);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  /** The data columns of every live row, as strings (a multiset's elements). */
  static List<String> values(Dataset ds) {
    List<String> out = new ArrayList<>();
    for (Map<String, Object> row : rows(ds, null)) {
      out.add(row.get("id") + "|" + row.get("a") + "|" + row.get("x") + "|" + row.get("y") + "|" + row.get("s"));
    }
    return out;
  }
}
