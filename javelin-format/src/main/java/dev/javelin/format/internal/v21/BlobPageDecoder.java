package dev.javelin.format.internal.v21;

import dev.javelin.format.internal.encoding.ColumnSource;
import dev.javelin.format.proto.Encodings21.BlobLayout;
import dev.javelin.format.proto.Encodings21.PageLayout;
import dev.javelin.format.proto.File2Protos.ColumnMetadata;
import dev.javelin.format.schema.LanceField;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Map;

/**
 * Reads a blob page: large binary values stored out of line, anywhere in the file, and a
 * description per row, (u64 position, u64 size), stored in the page with an inner layout
 * (mini-block of a packed struct in what Lance writes). A description of size 0 is an empty value
 * at position 0, and otherwise a null whose position holds {@code def << 16 | rep}. Reading rows
 * reads their descriptions (only the chunks holding them) and then each value's bytes.
 *
 * <p>Lance writes blob columns for binary fields whose metadata says
 * {@code lance-encoding:blob=true}. Blobs under lists are not supported (Lance reads one
 * description per row).
 */
final class BlobPageDecoder extends PageDecoder {
  private static final LanceField DESCRIPTION = new LanceField(-1, "description", "fixed_size_binary:16", false,
      List.of(), Map.of());
  private static final LeafPath DESCRIPTION_PATH = LeafPath.leaves(DESCRIPTION).get(0);

  private final RepDefLayers layers;
  private final PageDecoder descriptions;

  BlobPageDecoder(ColumnSource source, LeafPath path, int column, int page, ColumnMetadata.Page meta,
      BlobLayout layout) {
    super(source, path, column, page, meta);
    if (path.maxRep > 0) {
      throw unsupported("blob values under a list are not supported");
    }
    if (path.type.kind != LeafType.Kind.VARIABLE) {
      throw corrupt("blob page for field " + path.name() + " of type " + path.type);
    }
    String[] problem = new String[1];
    this.layers = RepDefLayers.fromFile(layout.getLayersList(), path, problem);
    if (layers == null) {
      throw corrupt(problem[0]);
    }
    PageLayout inner = layout.getInnerLayout();
    switch (inner.getLayoutCase()) {
      case MINI_BLOCK_LAYOUT:
        this.descriptions = new MiniBlockPageDecoder(source, DESCRIPTION_PATH, column, page, meta,
            inner.getMiniBlockLayout());
        break;
      case FULL_ZIP_LAYOUT:
        this.descriptions = new FullZipPageDecoder(source, DESCRIPTION_PATH, column, page, meta,
            inner.getFullZipLayout());
        break;
      default:
        throw unsupported("blob descriptions in a " + inner.getLayoutCase() + " layout are not supported");
    }
  }

  @Override
  void release() {
    descriptions.release();
  }

  @Override
  void doRead(long[] rs, long[] re, int count, LeafEntries out) throws IOException {
    LeafEntries d = new LeafEntries(DESCRIPTION_PATH);
    descriptions.read(rs, re, count, d);
    FixedValues v = (FixedValues) d.values;
    long rows = 0;
    for (int i = 0; i < count; i++) {
      rows += re[i] - rs[i];
    }
    if (v.count() != rows) {
      throw corrupt("read " + v.count() + " blob descriptions for " + rows + " rows");
    }
    ByteBuffer b = ByteBuffer.wrap(v.array()).order(ByteOrder.LITTLE_ENDIAN);
    VarValues values = (VarValues) out.values;
    for (int r = 0; r < rows; r++) {
      long position = b.getLong(16 * r);
      long size = b.getLong(16 * r + 8);
      if (size == 0) {
        if (position == 0) {
          out.add(0, 0);
          values.appendNulls(1);
          continue;
        }
        int rep = (int) (position & 0xFFFF);
        int def = (int) ((position >>> 16) & 0xFFFF);
        int code = layers.codeOf(def);
        if (rep != 0 || (position >>> 32) != 0 || code <= 0) {
          throw corrupt("blob description " + r + " of size 0 has position " + Long.toUnsignedString(position)
              + ", which is not a null's levels");
        }
        out.add(0, code);
        values.appendNulls(1);
        continue;
      }
      if (size < 0 || size > Integer.MAX_VALUE - 64) {
        throw unsupported("blob of " + Long.toUnsignedString(size) + " bytes is too large to read at once");
      }
      ByteBuffer blob = source.read(column, page, position, size);
      out.add(0, 0);
      values.append(blob, blob.position(), (int) size);
    }
  }
}
