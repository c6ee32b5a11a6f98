package dev.javelin.format.internal.v21;

import dev.javelin.format.proto.Encodings21.PageLayout;
import java.nio.ByteBuffer;
import java.util.List;

/** The buffers of one page and the layout that describes them. */
final class EncodedPage {
  final List<ByteBuffer> buffers;
  final PageLayout layout;

  EncodedPage(List<ByteBuffer> buffers, PageLayout layout) {
    this.buffers = buffers;
    this.layout = layout;
  }
}
