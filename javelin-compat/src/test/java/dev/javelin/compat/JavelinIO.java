package dev.javelin.compat;

import dev.javelin.format.LanceFileReader;
import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.LanceFileWriter;
import dev.javelin.format.ReadOptions;
import dev.javelin.format.WriteOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;

/** Javelin's file writer and reader, in the same shape as {@link LanceOracle}. */
final class JavelinIO {
  private JavelinIO() {}

  /** Writes the batches with Javelin; pages are flushed at {@code maxPageBytes}. */
  static void write(Path path, LanceFileVersion version, long maxPageBytes, Schema schema,
      List<VectorSchemaRoot> batches) throws IOException {
    WriteOptions options = WriteOptions.builder().version(version).maxPageBytes(maxPageBytes).build();
    try (LanceFileWriter w = LanceFileWriter.create(path, schema, options)) {
      for (VectorSchemaRoot b : batches) {
        w.write(b);
      }
    }
  }

  /** Reads every row of every column; the caller closes the table. */
  static Table readAll(LanceFileReader reader, BufferAllocator allocator) throws IOException {
    return read(reader, allocator, ReadOptions.all());
  }

  /** Reads what the options select; the caller closes the table. */
  static Table read(LanceFileReader reader, BufferAllocator allocator, ReadOptions options) throws IOException {
    try (ArrowReader batches = reader.read(options)) {
      return Table.drain(batches, allocator);
    }
  }

  /** Reads the given rows (in the order given) of the given columns; the caller closes the table. */
  static Table take(LanceFileReader reader, long[] rows, List<String> columns) throws IOException {
    return Table.of(reader.take(rows, columns));
  }
}
