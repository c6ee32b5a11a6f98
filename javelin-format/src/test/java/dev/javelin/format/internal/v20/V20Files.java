package dev.javelin.format.internal.v20;

import dev.javelin.format.LanceFileReader;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.LanceFileWriter;
import dev.javelin.format.ReadOptions;
import dev.javelin.format.WriteOptions;
import dev.javelin.testing.RandomBatches;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;

/** Writes test files with Javelin (2.0) and reads them back into canonical values. */
final class V20Files {
  private V20Files() {}

  static WriteOptions options(long maxPageBytes) {
    return WriteOptions.builder().version(LanceFileVersion.V2_0).maxPageBytes(maxPageBytes).build();
  }

  /**
   * Writes batches of random rows of a schema and returns what was written, result[column][row].
   */
  static List<List<Object>> write(Path file, Schema schema, int[] batches, long seed, WriteOptions options,
      BufferAllocator allocator) throws IOException {
    Random random = new Random(seed);
    List<List<Object>> expected = new ArrayList<>();
    for (int i = 0; i < schema.getFields().size(); i++) {
      expected.add(new ArrayList<>());
    }
    LanceFileWriter writer = null;
    try {
      for (int rows : batches.length == 0 ? new int[] {0} : batches) {
        try (VectorSchemaRoot batch = RandomBatches.batch(schema, rows, random, allocator)) {
          if (writer == null) {
            writer = LanceFileWriter.create(file, RandomBatches.vectorSchema(batch), options);
          }
          if (batches.length > 0) {
            writer.write(batch);
          }
          List<List<Object>> values = RandomBatches.canon(batch);
          for (int c = 0; c < values.size(); c++) {
            expected.get(c).addAll(values.get(c));
          }
        }
      }
      writer.close();
    } catch (IOException | RuntimeException e) {
      if (writer != null) {
        writer.abort();
      }
      throw e;
    }
    return expected;
  }

  /** Reads a file through {@link LanceFileReader#read}; result[column][row]. */
  static List<List<Object>> read(Path file, ReadOptions options, BufferAllocator allocator) throws IOException {
    try (LanceFileReader reader = LanceFileReader.open(file, allocator)) {
      return read(reader, options);
    }
  }

  static List<List<Object>> read(LanceFileReader reader, ReadOptions options) throws IOException {
    List<List<Object>> out = new ArrayList<>();
    try (ArrowReader batches = reader.read(options)) {
      VectorSchemaRoot root = batches.getVectorSchemaRoot();
      for (int i = 0; i < root.getFieldVectors().size(); i++) {
        out.add(new ArrayList<>());
      }
      while (batches.loadNextBatch()) {
        List<List<Object>> values = RandomBatches.canon(root);
        for (int c = 0; c < values.size(); c++) {
          out.get(c).addAll(values.get(c));
        }
      }
    }
    return out;
  }

  /** Takes rows through {@link LanceFileReader#take}; result[column][i]. */
  static List<List<Object>> take(LanceFileReader reader, long[] rows, List<String> columns) throws IOException {
    try (VectorSchemaRoot root = reader.take(rows, columns)) {
      return RandomBatches.canon(root);
    }
  }

  /** The expected values of rows [start, end) of each column. */
  static List<List<Object>> slice(List<List<Object>> all, int start, int end) {
    List<List<Object>> out = new ArrayList<>();
    for (List<Object> col : all) {
      out.add(new ArrayList<>(col.subList(start, end)));
    }
    return out;
  }

  /** The expected values of the given rows of each column. */
  static List<List<Object>> pick(List<List<Object>> all, long[] rows) {
    List<List<Object>> out = new ArrayList<>();
    for (List<Object> col : all) {
      List<Object> c = new ArrayList<>();
      for (long r : rows) {
        c.add(col.get((int) r));
      }
      out.add(c);
    }
    return out;
  }
}
