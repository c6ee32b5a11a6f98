package dev.javelin.cli;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * An Arrow IPC file or stream read by Arrow's own readers, whose failures on a damaged or
 * mislabelled input become {@link InvalidInputException}s naming the file and what it was read as.
 */
final class ArrowIpcInput extends ArrowReader {
  private final Path path;
  private final String label;
  private final ArrowReader in;

  ArrowIpcInput(Path path, String label, ArrowReader in, BufferAllocator allocator) {
    super(allocator);
    this.path = path;
    this.label = label;
    this.in = in;
  }

  @Override
  public VectorSchemaRoot getVectorSchemaRoot() throws IOException {
    try {
      return in.getVectorSchemaRoot();
    } catch (FileSystemException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw unreadable(e);
    }
  }

  @Override
  public boolean loadNextBatch() throws IOException {
    try {
      return in.loadNextBatch();
    } catch (FileSystemException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw unreadable(e);
    }
  }

  private InvalidInputException unreadable(Exception e) {
    if (e instanceof InvalidInputException) {
      return (InvalidInputException) e;
    }
    return new InvalidInputException("Cannot read " + path + " as " + label + ": " + ErrorHandler.message(e), e);
  }

  @Override
  public long bytesRead() {
    return in.bytesRead();
  }

  @Override
  protected void closeReadSource() throws IOException {
    in.close();
  }

  @Override
  protected Schema readSchema() throws IOException {
    return getVectorSchemaRoot().getSchema();
  }
}
