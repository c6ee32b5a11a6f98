package dev.javelin.compat;

import static org.assertj.core.api.Assertions.assertThat;

import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.LanceFileWriter;
import dev.javelin.format.ReadOptions;
import dev.javelin.format.encoding.WriteOptions;
import dev.javelin.format.io.LocalOutputFile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.util.Text;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Javelin's 2.1 files read by lance-core 7.0.0, and lance-core's read by Javelin. */
class V21SmokeTest {
  @TempDir Path dir;
  BufferAllocator allocator;

  @BeforeEach
  void open() {
    allocator = new RootAllocator();
  }

  @AfterEach
  void close() {
    allocator.close();
  }

  static List<List<Object>> rows(VectorSchemaRoot root) {
    List<List<Object>> out = new ArrayList<>();
    for (int r = 0; r < root.getRowCount(); r++) {
      List<Object> row = new ArrayList<>();
      for (FieldVector v : root.getFieldVectors()) {
        Object o = v.getObject(r);
        row.add(o instanceof Text ? o.toString() : o);
      }
      out.add(row);
    }
    return out;
  }

  List<List<Object>> lanceRead(Path file) throws Exception {
    List<List<Object>> out = new ArrayList<>();
    try (org.lance.file.LanceFileReader r = org.lance.file.LanceFileReader.open(file.toString(), allocator);
        ArrowReader batches = r.readAll(null, null, 1024)) {
      while (batches.loadNextBatch()) {
        out.addAll(rows(batches.getVectorSchemaRoot()));
      }
    }
    return out;
  }

  List<List<Object>> javelinRead(Path file) throws Exception {
    List<List<Object>> out = new ArrayList<>();
    try (dev.javelin.format.LanceFileReader r = dev.javelin.format.LanceFileReader.open(file, allocator);
        ArrowReader batches = r.read(ReadOptions.builder().batchSize(1000).build())) {
      while (batches.loadNextBatch()) {
        out.addAll(rows(batches.getVectorSchemaRoot()));
      }
    }
    return out;
  }

  void javelinWrite(Path file, VectorSchemaRoot root) throws Exception {
    WriteOptions opts = WriteOptions.builder().version(LanceFileVersion.V2_1).build();
    try (LanceFileWriter w = LanceFileWriter.create(new LocalOutputFile(file), root.getSchema(), opts)) {
      w.write(root);
    }
  }

  void lanceWrite(Path file, VectorSchemaRoot root) throws Exception {
    try (org.lance.file.LanceFileWriter w = org.lance.file.LanceFileWriter.open(
        file.toString(), allocator, null, Optional.of("2.1"), Map.of())) {
      w.write(root);
    }
  }

  static IntVector ints(BufferAllocator a, String name, int n) {
    IntVector v = new IntVector(name, a);
    v.allocateNew(n);
    for (int i = 0; i < n; i++) {
      if (i % 11 == 5) {
        v.setNull(i);
      } else {
        v.set(i, i * 7 - 100);
      }
    }
    v.setValueCount(n);
    return v;
  }

  @Test
  void int32JavelinToLance() throws Exception {
    try (VectorSchemaRoot root = VectorSchemaRoot.of(ints(allocator, "x", 5000))) {
      Path f = dir.resolve("j.lance");
      javelinWrite(f, root);
      assertThat(lanceRead(f)).isEqualTo(rows(root));
    }
  }
}
