package dev.javelin.format.v21;

import dev.javelin.format.proto.Encodings21.AllNullLayout;
import dev.javelin.format.proto.Encodings21.PageLayout;
import dev.javelin.format.proto.Encodings21.RepDefLayer;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * Writes a page with no valid item. A top-level leaf needs nothing but the layout; otherwise the
 * page keeps its levels (which say what kind of null each entry is) as two buffers of plain u16
 * values, repetition then definition, either possibly empty.
 */
final class AllNullWriter {
  private AllNullWriter() {}

  static EncodedPage write(LeafEntries page, RepDefLayers layers, short[] def) {
    if (page.path.numLayers() == 1) {
      AllNullLayout l = AllNullLayout.newBuilder().addLayers(RepDefLayer.REPDEF_NULLABLE_ITEM).build();
      return new EncodedPage(List.of(), PageLayout.newBuilder().setAllNullLayout(l).build());
    }
    ByteBuilder rep = new ByteBuilder();
    if (page.rep != null) {
      for (int i = 0; i < page.size(); i++) {
        rep.appendShort(page.rep.get(i));
      }
    }
    ByteBuilder defs = new ByteBuilder();
    if (def != null) {
      for (int i = 0; i < page.size(); i++) {
        defs.appendShort(def[i]);
      }
    }
    List<ByteBuffer> buffers = List.of(rep.toBuffer(), defs.toBuffer());
    AllNullLayout l = AllNullLayout.newBuilder().addAllLayers(layers.asList()).build();
    return new EncodedPage(buffers, PageLayout.newBuilder().setAllNullLayout(l).build());
  }
}
