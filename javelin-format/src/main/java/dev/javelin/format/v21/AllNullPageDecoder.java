package dev.javelin.format.v21;

import dev.javelin.format.encoding.ColumnSource;
import dev.javelin.format.proto.Encodings21.AllNullLayout;
import dev.javelin.format.proto.Encodings21.RepDefLayer;
import dev.javelin.format.proto.File2Protos.ColumnMetadata;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Reads an all-null page, or (format 2.2, where the layout is called ConstantLayout) a page whose
 * every visible item holds the one value the layout carries inline.
 *
 * <p>A page with one item layer and no buffers needs no bytes: every row is a null item (or the
 * constant). Otherwise buffers 0 and 1 hold the page's repetition and definition levels, as plain
 * u16 values or, when the layout names an encoding for them, as one block each; they are loaded
 * whole on first use, with each row's first level.
 */
final class AllNullPageDecoder extends PageDecoder {
  private final RepDefLayers layers;
  private final boolean simple;
  private final byte[] constant;
  private final LevelDecompressor repDecoder;
  private final LevelDecompressor defDecoder;
  private final long numRepValues;
  private final long numDefValues;
  private short[] rep;
  private short[] codes;
  private int[] rowStart;

  AllNullPageDecoder(ColumnSource source, LeafPath path, int column, int page, ColumnMetadata.Page meta,
      AllNullLayout layout) {
    super(source, path, column, page, meta);
    String[] problem = new String[1];
    this.layers = RepDefLayers.fromFile(layout.getLayersList(), path, problem);
    if (layers == null) {
      throw corrupt(problem[0]);
    }
    if (layout.hasInlineValue()) {
      byte[] v = layout.getInlineValue().toByteArray();
      LeafType t = path.type;
      boolean fits = t.kind == LeafType.Kind.FIXED && (t.bitsPerItem == 1 ? v.length == 1 : v.length * 8L == t.bitsPerItem);
      if (!fits) {
        throw corrupt("constant page holds a " + v.length + "-byte value but field " + path.name() + " is " + t);
      }
      this.constant = v;
    } else {
      this.constant = null;
    }
    try {
      this.repDecoder = layout.hasRepCompression() ? Decompressors.levels(layout.getRepCompression()) : null;
      this.defDecoder = layout.hasDefCompression() ? Decompressors.levels(layout.getDefCompression()) : null;
    } catch (UnsupportedEncodingException e) {
      throw unsupported(e.getMessage());
    } catch (BadDataException e) {
      throw corrupt(e.getMessage());
    }
    this.numRepValues = layout.getNumRepValues();
    this.numDefValues = layout.getNumDefValues();
    boolean singleItemLayer = layout.getLayersCount() == 1
        && (layout.getLayers(0) == RepDefLayer.REPDEF_NULLABLE_ITEM
            || constant != null && layout.getLayers(0) == RepDefLayer.REPDEF_ALL_VALID_ITEM);
    long bytes = 0;
    for (long s : bufferSizes) {
      bytes += s;
    }
    this.simple = singleItemLayer && bytes == 0;
    if (!simple) {
      requireBuffers(2);
    }
  }

  @Override
  void release() {
    rep = null;
    codes = null;
    rowStart = null;
  }

  private short[] levels(int buffer, LevelDecompressor decoder, long declared) throws IOException {
    long size = bufferSizes[buffer];
    if (size == 0) {
      return new short[0];
    }
    if (size > Integer.MAX_VALUE - 64) {
      throw corrupt("level buffer " + buffer + " of " + size + " bytes is too large");
    }
    ByteBuffer b = readBuffer(buffer, 0, size).slice().order(ByteOrder.LITTLE_ENDIAN);
    if (decoder == null) {
      if (size % 2 != 0) {
        throw corrupt("level buffer " + buffer + " has an odd size " + size);
      }
      short[] out = new short[(int) (size / 2)];
      b.asShortBuffer().get(out);
      return out;
    }
    // A block of levels expands at most 8 times per bit-packed bit, far less than this bound.
    if (declared < 0 || declared > 16 * size + 64 * 1024 || declared > Integer.MAX_VALUE - 64) {
      throw corrupt("level buffer " + buffer + " of " + size + " bytes claims " + Long.toUnsignedString(declared)
          + " levels");
    }
    return decoder.decode(b, 0, (int) size, (int) declared);
  }

  private void load() throws IOException {
    if (rowStart != null) {
      return;
    }
    short[] r = levels(0, repDecoder, numRepValues);
    short[] d = levels(1, defDecoder, numDefValues);
    if ((r.length > 0) != (path.maxRep > 0)) {
      throw corrupt(r.length > 0 ? "has repetition levels but field " + path.name() + " is under no list"
          : "has no repetition levels but field " + path.name() + " is under a list");
    }
    if (d.length == 0 && constant == null) {
      throw corrupt("all-null page has no definition levels, so its items would be valid");
    }
    long n = Math.max(r.length, d.length);
    if (r.length > 0 && d.length > 0 && r.length != d.length) {
      throw corrupt("has " + r.length + " repetition levels but " + d.length + " definition levels");
    }
    if (numRows > n) {
      throw corrupt("has " + numRows + " rows but only " + n + " levels");
    }
    short[] c = new short[(int) n];
    boolean anyCode = false;
    for (int i = 0; i < d.length; i++) {
      int code = layers.codeOf(d[i] & 0xFFFF);
      if (code < 0) {
        throw corrupt("definition level " + (d[i] & 0xFFFF) + " is above the maximum " + layers.maxDef);
      }
      if (code == 0 && constant == null) {
        throw corrupt("all-null page has a valid item at level " + i);
      }
      c[i] = (short) code;
      anyCode |= code != 0;
    }
    int[] starts = new int[(int) numRows + 1];
    if (r.length > 0) {
      int row = 0;
      for (int i = 0; i < n; i++) {
        int level = r[i] & 0xFFFF;
        if (level > path.maxRep) {
          throw corrupt("repetition level " + level + " is above the maximum " + path.maxRep);
        }
        if (i == 0 && level != path.maxRep) {
          throw corrupt("levels do not start with a new row");
        }
        if (level == path.maxRep) {
          if (row >= numRows) {
            throw corrupt("levels hold more than the page's " + numRows + " rows");
          }
          starts[row++] = i;
        }
      }
      if (row != numRows) {
        throw corrupt("levels hold " + row + " rows but the page has " + numRows);
      }
    } else {
      if (n != numRows) {
        throw corrupt("has " + n + " levels for " + numRows + " rows and no lists");
      }
      for (int i = 0; i < numRows; i++) {
        starts[i] = i;
      }
    }
    starts[(int) numRows] = (int) n;
    this.rep = r.length > 0 ? r : null;
    this.codes = anyCode ? c : null;
    this.rowStart = starts;
  }

  @Override
  void doRead(long[] rs, long[] re, int count, LeafEntries out) throws IOException {
    for (int i = 0; i < count; i++) {
      if (simple) {
        int n = (int) (re[i] - rs[i]);
        out.addCodes(constant == null ? Codes.nullAt(0) : 0, n);
        ConstantDecompressor.append(constant, n, out.values);
        continue;
      }
      load();
      int from = rowStart[(int) rs[i]];
      int to = rowStart[(int) re[i]];
      out.addLevels(rep, codes, from, to);
      int visible = 0;
      for (int k = from; k < to; k++) {
        visible += codes == null || path.depthOf(codes[k]) == 0 ? 1 : 0;
      }
      ConstantDecompressor.append(constant, visible, out.values);
    }
  }
}
