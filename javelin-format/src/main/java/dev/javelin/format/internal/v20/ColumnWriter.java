package dev.javelin.format.internal.v20;

import dev.javelin.format.internal.encoding.BufferSink;
import dev.javelin.format.proto.Encodings20.ArrayEncoding;
import dev.javelin.format.proto.File2Protos.ColumnMetadata;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;

/** Collects the pages of one column as encoders write them. */
final class ColumnWriter {
  private final ColumnMetadata.Builder metadata = ColumnMetadata.newBuilder().setEncoding(Proto20.columnEncoding());

  /**
   * Writes a page's buffers (in buffer-index order) through the sink and records the page.
   *
   * @param length the number of values in the page (rows, or items for a list's item column)
   */
  void addPage(BufferSink sink, List<ByteBuffer> buffers, long length, ArrayEncoding encoding) throws IOException {
    ColumnMetadata.Page.Builder page = ColumnMetadata.Page.newBuilder()
        .setLength(length)
        .setPriority(0)
        .setEncoding(Proto20.direct(encoding, Proto20.ARRAY_ENCODING_URL));
    for (ByteBuffer b : buffers) {
      long size = b.remaining();
      page.addBufferOffsets(sink.write(b)).addBufferSizes(size);
    }
    metadata.addPages(page);
  }

  ColumnMetadata build() {
    return metadata.build();
  }
}
