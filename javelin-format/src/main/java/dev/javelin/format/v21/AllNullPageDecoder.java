package dev.javelin.format.v21;

import dev.javelin.format.encoding.ColumnSource;
import dev.javelin.format.proto.Encodings21.AllNullLayout;
import dev.javelin.format.proto.Encodings21.RepDefLayer;
import dev.javelin.format.proto.File2Protos.ColumnMetadata;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Reads an all-null page. A single nullable-item layer needs no bytes: every row is a null item.
 * Otherwise buffers 0 and 1 hold the page's repetition and definition levels as plain u16 values
 * (either may be empty); they are loaded whole on first use, with each row's first level.
 */
final class AllNullPageDecoder extends PageDecoder {
  private final RepDefLayers layers;
  private final boolean simple;
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
    this.simple = layout.getLayersCount() == 1 && layout.getLayers(0) == RepDefLayer.REPDEF_NULLABLE_ITEM;
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

  private void load() throws IOException {
    if (rowStart != null) {
      return;
    }
    long repSize = bufferSizes[0];
    long defSize = bufferSizes[1];
    if (repSize % 2 != 0 || defSize % 2 != 0) {
      throw corrupt("level buffers have odd sizes (" + repSize + ", " + defSize + ")");
    }
    if ((repSize > 0) != (path.maxRep > 0)) {
      throw corrupt(repSize > 0 ? "has repetition levels but field " + path.name() + " is under no list"
          : "has no repetition levels but field " + path.name() + " is under a list");
    }
    if (defSize == 0) {
      throw corrupt("all-null page has no definition levels, so its items would be valid");
    }
    long n = defSize / 2;
    if (repSize > 0 && repSize / 2 != n) {
      throw corrupt("has " + (repSize / 2) + " repetition levels but " + n + " definition levels");
    }
    if (numRows > n) {
      throw corrupt("has " + numRows + " rows but only " + n + " levels");
    }
    ByteBuffer d = readBuffer(1, 0, defSize);
    short[] c = new short[(int) n];
    for (int i = 0; i < n; i++) {
      int code = layers.codeOf(d.getShort(2 * i) & 0xFFFF);
      if (code < 0) {
        throw corrupt("definition level " + (d.getShort(2 * i) & 0xFFFF) + " is above the maximum " + layers.maxDef);
      }
      if (code == 0) {
        throw corrupt("all-null page has a valid item at level " + i);
      }
      c[i] = (short) code;
    }
    int[] starts = new int[(int) numRows + 1];
    short[] r = null;
    if (repSize > 0) {
      ByteBuffer rb = readBuffer(0, 0, repSize);
      r = new short[(int) n];
      int row = 0;
      for (int i = 0; i < n; i++) {
        r[i] = rb.getShort(2 * i);
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
    this.rep = r;
    this.codes = c;
    this.rowStart = starts;
  }

  @Override
  void doRead(long[] rs, long[] re, int count, LeafEntries out) throws IOException {
    for (int i = 0; i < count; i++) {
      if (simple) {
        int n = (int) (re[i] - rs[i]);
        out.addCodes(Codes.nullAt(0), n);
        out.values.appendNulls(n);
        continue;
      }
      load();
      int from = rowStart[(int) rs[i]];
      int to = rowStart[(int) re[i]];
      out.addLevels(rep, codes, from, to);
      int visible = 0;
      for (int k = from; k < to; k++) {
        visible += path.depthOf(codes[k]) == 0 ? 1 : 0;
      }
      out.values.appendNulls(visible);
    }
  }
}
