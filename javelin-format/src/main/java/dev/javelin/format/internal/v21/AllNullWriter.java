package dev.javelin.format.internal.v21;

import dev.javelin.format.internal.encoding.ByteBuilder;
import dev.javelin.format.proto.Encodings21.AllNullLayout;
import dev.javelin.format.proto.Encodings21.PageLayout;
import dev.javelin.format.proto.Encodings21.RepDefLayer;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * Writes a page with no valid item. A top-level leaf needs nothing but the layout; otherwise the
 * page keeps its levels (which say what kind of null each entry is) as two buffers, repetition
 * then definition, either possibly empty: plain u16 values in 2.1, as Lance's are; in 2.2, with
 * compression on, each compressed as one block the way mini-block levels are ({@link
 * LevelEncoder}), as lance-core 7.0.0 writes them.
 */
final class AllNullWriter {
  private AllNullWriter() {}

  static EncodedPage write(LeafEntries page, RepDefLayers layers, short[] def) {
    return write(page, layers, def, false);
  }

  static EncodedPage write(LeafEntries page, RepDefLayers layers, short[] def, boolean compressLevels) {
    if (page.path.numLayers() == 1) {
      AllNullLayout l = AllNullLayout.newBuilder().addLayers(RepDefLayer.REPDEF_NULLABLE_ITEM).build();
      return new EncodedPage(List.of(), PageLayout.newBuilder().setAllNullLayout(l).build());
    }
    AllNullLayout.Builder l = AllNullLayout.newBuilder().addAllLayers(layers.asList());
    int n = page.size();
    short[] rep = page.rep == null ? null : page.rep.array();
    ByteBuilder reps = new ByteBuilder();
    ByteBuilder defs = new ByteBuilder();
    if (compressLevels) {
      if (rep != null) {
        LevelEncoder e = LevelEncoder.forLevels(rep, n, true);
        e.write(rep, 0, n, reps);
        l.setRepCompression(e.encoding()).setNumRepValues(n);
      }
      if (def != null) {
        LevelEncoder e = LevelEncoder.forLevels(def, n, true);
        e.write(def, 0, n, defs);
        l.setDefCompression(e.encoding()).setNumDefValues(n);
      }
    } else {
      for (int i = 0; rep != null && i < n; i++) {
        reps.appendShort(rep[i]);
      }
      for (int i = 0; def != null && i < n; i++) {
        defs.appendShort(def[i]);
      }
    }
    List<ByteBuffer> buffers = List.of(reps.toBuffer(), defs.toBuffer());
    return new EncodedPage(buffers, PageLayout.newBuilder().setAllNullLayout(l).build());
  }
}
