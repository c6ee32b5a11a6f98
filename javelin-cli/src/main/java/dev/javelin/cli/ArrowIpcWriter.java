package dev.javelin.cli;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.util.AutoCloseables;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.Schema;

/** An Arrow IPC file (the "ARROW1" random-access format), one record batch per batch read. */
final class ArrowIpcWriter implements RowWriter {
  private final Path path;
  private final BufferAllocator allocator;
  private FileChannel channel;
  private VectorSchemaRoot root;
  private ArrowFileWriter writer;
  private long rows;

  ArrowIpcWriter(Path path, BufferAllocator allocator) {
    this.path = path;
    this.allocator = allocator;
  }

  @Override
  public void start(Schema schema) throws IOException {
    channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING);
    root = VectorSchemaRoot.create(schema, allocator);
    writer = new ArrowFileWriter(root, null, channel);
    writer.start();
  }

  @Override
  public void write(VectorSchemaRoot batch) throws IOException {
    // Moves the batch's buffers into the writer's root by reference, without copying data.
    try (ArrowRecordBatch records = new VectorUnloader(batch).getRecordBatch()) {
      new VectorLoader(root).load(records);
    }
    writer.writeBatch();
    rows += batch.getRowCount();
  }

  @Override
  public long finish() throws IOException {
    writer.end();
    return rows;
  }

  @Override
  public void close() throws IOException {
    try {
      AutoCloseables.close(writer, root, channel);
    } catch (IOException | RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException(e);
    }
  }
}
