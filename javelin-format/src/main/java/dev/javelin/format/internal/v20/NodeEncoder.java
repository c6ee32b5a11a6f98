package dev.javelin.format.internal.v20;

import dev.javelin.format.WriteOptions;
import dev.javelin.format.exceptions.UnsupportedFormatException;
import dev.javelin.format.internal.encoding.BufferSink;
import dev.javelin.format.proto.File2Protos.ColumnMetadata;
import dev.javelin.format.schema.LanceField;
import java.io.IOException;
import java.util.List;
import org.apache.arrow.vector.FieldVector;

/**
 * Encodes one field (and its children) into its 2.0 columns. Values are copied into page
 * buffers as they arrive and written as a page once the buffers hold about
 * {@link WriteOptions#maxPageBytes()}.
 */
abstract class NodeEncoder {
  /** An encoder for a field, choosing the layout its type takes in 2.0. */
  static NodeEncoder create(LanceField field, WriteOptions options) {
    Types20.Kind kind = Types20.kind(field);
    if (kind == null) {
      throw new UnsupportedFormatException(null,
          "Javelin cannot write field '" + field.name() + "' of type " + field.logicalType() + " in Lance 2.0");
    }
    switch (kind) {
      case FIXED:
        return new FixedEncoder(field, options);
      case BINARY:
        return new BinaryEncoder(field, options);
      case LIST:
        return new ListEncoder(field, options);
      default:
        return new StructEncoder(field, options);
    }
  }

  /** Adds values [start, end) of a vector of this field's type. */
  abstract void append(FieldVector vector, int start, int end, BufferSink sink) throws IOException;

  /** Writes whatever is buffered as a page (nothing if nothing is buffered). */
  abstract void flush(BufferSink sink) throws IOException;

  /** Flushes, then adds this field's columns to {@code out}, pre-order. */
  abstract void finish(BufferSink sink, List<ColumnMetadata> out) throws IOException;
}
