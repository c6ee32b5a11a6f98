package dev.javelin.format.encoding;

import dev.javelin.format.proto.File2Protos.ColumnMetadata;
import java.io.IOException;
import java.util.List;
import org.apache.arrow.vector.FieldVector;

/**
 * Encodes the values of one top-level field into one or more columns of a file. The writer
 * calls {@link #append} once per batch and {@link #finish} once at the end. An encoder may buffer
 * values across batches to fill pages, but must write a page to the sink once it holds about
 * {@link WriteOptions#maxPageBytes()} bytes, so memory stays bounded.
 */
public interface FieldEncoder {
  /** The number of columns this field occupies, fixed when the encoder is made. */
  int numColumns();

  /**
   * Adds a batch of values. The vector is owned by the caller and only valid during this call:
   * copy what is kept.
   */
  void append(FieldVector vector, BufferSink sink) throws IOException;

  /**
   * Writes whatever is buffered and returns the metadata of each column, in column order; each
   * page's {@code buffer_offsets} are absolute offsets returned by the sink.
   */
  List<ColumnMetadata> finish(BufferSink sink) throws IOException;
}
