package dev.javelin.compat;

import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.LanceFileWriter;
import dev.javelin.format.WriteOptions;
import dev.javelin.io.LocalOutputFile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;

/** Writing and reading files with Javelin and lance-core for the compression tests. */
final class EncFiles {
  private EncFiles() {}

  static void javelinWrite(Path file, VectorSchemaRoot root, long maxPageBytes, boolean compression)
      throws Exception {
    WriteOptions opts = WriteOptions.builder().version(LanceFileVersion.V2_1).maxPageBytes(maxPageBytes)
        .compression(compression).build();
    try (LanceFileWriter w = LanceFileWriter.create(new LocalOutputFile(file), root.getSchema(), opts)) {
      w.write(root);
    }
  }

  static void lanceWrite(Path file, VectorSchemaRoot root, BufferAllocator allocator) throws Exception {
    try (org.lance.file.LanceFileWriter w = org.lance.file.LanceFileWriter.open(
        file.toString(), allocator, null, Optional.of("2.1"), Map.of())) {
      w.write(root);
    }
  }

  /** The bytes of each column's pages (all their buffers), in column order. */
  static long[] columnBytes(Path file) throws Exception {
    try (dev.javelin.io.LocalInputFile in = dev.javelin.io.LocalInputFile.open(file)) {
      List<dev.javelin.format.proto.File2Protos.ColumnMetadata> cols =
          dev.javelin.format.internal.container.FileMetadata.read(in).columns();
      long[] out = new long[cols.size()];
      for (int c = 0; c < cols.size(); c++) {
        for (dev.javelin.format.proto.File2Protos.ColumnMetadata.Page p : cols.get(c).getPagesList()) {
          for (long s : p.getBufferSizesList()) {
            out[c] += s;
          }
        }
      }
      return out;
    }
  }

  /** Every row as Javelin reads it. */
  static List<List<Object>> javelinRead(Path file, BufferAllocator allocator) throws Exception {
    List<List<Object>> out = new ArrayList<>();
    try (dev.javelin.format.LanceFileReader r = dev.javelin.format.LanceFileReader.open(file, allocator);
        ArrowReader batches = r.read(dev.javelin.format.ReadOptions.builder().batchSize(1000).build())) {
      while (batches.loadNextBatch()) {
        out.addAll(V21SmokeTest.rows(batches.getVectorSchemaRoot()));
      }
    }
    return out;
  }

  /** The given rows, in the given order, as Javelin takes them. */
  static List<List<Object>> javelinTake(Path file, BufferAllocator allocator, long[] rows) throws Exception {
    try (dev.javelin.format.LanceFileReader r = dev.javelin.format.LanceFileReader.open(file, allocator);
        VectorSchemaRoot root = r.take(rows, null)) {
      return V21SmokeTest.rows(root);
    }
  }

  static List<List<Object>> lanceRead(Path file, BufferAllocator allocator) throws Exception {
    return lanceReadRanges(file, allocator, null);
  }

  static List<List<Object>> lanceReadRanges(Path file, BufferAllocator allocator, List<org.lance.util.Range> ranges)
      throws Exception {
    List<List<Object>> out = new ArrayList<>();
    try (org.lance.file.LanceFileReader r = org.lance.file.LanceFileReader.open(file.toString(), allocator);
        ArrowReader batches = r.readAll(null, ranges, 1000)) {
      while (batches.loadNextBatch()) {
        out.addAll(V21SmokeTest.rows(batches.getVectorSchemaRoot()));
      }
    }
    return out;
  }
}
