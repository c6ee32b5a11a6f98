package dev.javelin.format.internal.v21;

import dev.javelin.format.exceptions.BadDataException;
import dev.javelin.format.exceptions.UnsupportedEncodingException;
import dev.javelin.format.internal.encoding.ColumnSource;
import dev.javelin.format.internal.encoding.ReadPlan;
import dev.javelin.format.proto.Encodings21.AllNullLayout;
import dev.javelin.format.proto.Encodings21.RepDefLayer;
import dev.javelin.format.proto.File2Protos.ColumnMetadata;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Reads an all-null page, or (format 2.2, where the layout is called ConstantLayout) a page whose
 * every visible item holds one value: carried inline in the layout (fixed-width values of at most
 * 32 bytes) or in a value buffer ({@code u32 n, n x u32 sizes, the n Arrow buffers of a
 * one-value array}: the bytes, or the offsets then the bytes).
 *
 * <p>The buffers are: [value] for a constant without levels, [rep, def] for levels,
 * [value, rep, def] for both; none for a page with one item layer and no levels, where every row
 * is a null item (or the constant). The levels are plain u16 values or, when the layout names an
 * encoding for them, one block each; they are loaded whole on first use, with each row's first
 * level.
 */
final class ConstantPageDecoder extends PageDecoder {
  private final RepDefLayers layers;
  private final boolean simple;
  /** The constant's bytes (a fixed-width value, or a variable-width one), or null for all-null. */
  private byte[] constant;
  private final int valueBuffer;
  private final int repBuffer;
  private final int defBuffer;
  private final LevelDecompressor repDecoder;
  private final LevelDecompressor defDecoder;
  private final long numRepValues;
  private final long numDefValues;
  private short[] rep;
  private short[] codes;
  private int[] rowStart;

  ConstantPageDecoder(ColumnSource source, LeafPath path, int column, int page, ColumnMetadata.Page meta,
      AllNullLayout layout) {
    super(source, path, column, page, meta);
    String[] problem = new String[1];
    this.layers = RepDefLayers.fromFile(layout.getLayersList(), path, problem);
    if (layers == null) {
      throw corrupt(problem[0]);
    }
    LeafType t = path.type;
    int nb = bufferSizes.length;
    if (layout.hasInlineValue()) {
      byte[] v = layout.getInlineValue().toByteArray();
      if (!fixedFits(t, v.length)) {
        throw corrupt("constant page holds a " + v.length + "-byte value but field " + path.name() + " is " + t);
      }
      if (nb != 0 && nb != 2) {
        throw corrupt("constant page with an inline value has " + nb + " buffers, not 0 or 2");
      }
      this.constant = v;
      this.valueBuffer = -1;
    } else {
      if (nb > 3) {
        throw corrupt("constant page has " + nb + " buffers, not 0 to 3");
      }
      this.constant = null;
      this.valueBuffer = nb % 2 == 1 ? 0 : -1;
      if (valueBuffer >= 0 && t.kind != LeafType.Kind.FIXED && t.kind != LeafType.Kind.VARIABLE) {
        throw unsupported("a constant page of " + t + " values is not supported");
      }
    }
    this.repBuffer = nb >= 2 ? nb - 2 : -1;
    this.defBuffer = nb >= 2 ? nb - 1 : -1;
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
    boolean hasValue = constant != null || valueBuffer >= 0;
    boolean noLevels = repBuffer < 0 || bufferSizes[repBuffer] == 0 && bufferSizes[defBuffer] == 0;
    // Without levels every row is one item: the constant, or a null item.
    this.simple = noLevels;
    if (simple && path.maxRep > 0) {
      throw corrupt("page under a list stores no repetition levels");
    }
    if (simple && !hasValue && layout.getLayers(0) != RepDefLayer.REPDEF_NULLABLE_ITEM) {
      throw corrupt("all-null page without levels whose item layer is " + layout.getLayers(0));
    }
  }

  private static boolean fixedFits(LeafType t, int bytes) {
    return t.kind == LeafType.Kind.FIXED && (t.bitsPerItem == 1 ? bytes == 1 : bytes * 8L == t.bitsPerItem);
  }

  /** Reads the value buffer: {@code u32 n, n sizes, n buffers} of a one-value Arrow array. */
  private void loadValue() throws IOException {
    if (valueBuffer < 0 || constant != null) {
      return;
    }
    long size = bufferSizes[valueBuffer];
    if (size > Integer.MAX_VALUE - 64) {
      throw corrupt("constant value of " + size + " bytes is too large");
    }
    ByteBuffer b = readBuffer(valueBuffer, 0, size).slice().order(ByteOrder.LITTLE_ENDIAN);
    int len = b.limit();
    if (len < 4) {
      throw corrupt("constant value buffer of " + len + " bytes has no header");
    }
    long n = b.getInt(0) & 0xFFFFFFFFL;
    LeafType t = path.type;
    long expected = t.kind == LeafType.Kind.VARIABLE ? 2 : 1;
    if (n != expected || 4 + 4 * n > len) {
      throw corrupt("constant value buffer holds " + n + " buffers; a " + t + " value needs " + expected);
    }
    long[] sizes = new long[(int) n];
    long total = 4 + 4 * n;
    for (int i = 0; i < n; i++) {
      sizes[i] = b.getInt(4 + 4 * i) & 0xFFFFFFFFL;
      total += sizes[i];
    }
    if (total != len) {
      throw corrupt("constant value buffer of " + len + " bytes declares " + total);
    }
    int at = (int) (4 + 4 * n);
    if (t.kind == LeafType.Kind.FIXED) {
      if (!fixedFits(t, (int) sizes[0])) {
        throw corrupt("constant page holds a " + sizes[0] + "-byte value but field " + path.name() + " is " + t);
      }
      byte[] v = new byte[(int) sizes[0]];
      b.get(at, v);
      this.constant = v;
      return;
    }
    long w = sizes[0] / 2;
    if (sizes[0] != 16 && sizes[0] != 8) {
      throw corrupt("constant string has " + sizes[0] + " bytes of offsets, not 2 offsets");
    }
    long first = PageDecoder.unsigned(b, at, (int) w);
    long last = PageDecoder.unsigned(b, at + (int) w, (int) w);
    if (first < 0 || first > last || last > sizes[1]) {
      throw corrupt("constant string offsets " + first + ".." + last + " do not fit its " + sizes[1] + " bytes");
    }
    byte[] v = new byte[(int) (last - first)];
    b.get(at + (int) sizes[0] + (int) first, v);
    this.constant = v;
  }

  /** Appends the constant (or placeholders when there is none) for {@code n} items. */
  private void appendConstant(int n, LeafValues out) {
    if (constant == null || path.type.kind == LeafType.Kind.FIXED) {
      ConstantDecompressor.append(constant, n, out);
      return;
    }
    VarValues v = (VarValues) out;
    for (int i = 0; i < n; i++) {
      v.append(constant, 0, constant.length);
    }
  }

  @Override
  void release() {
    rep = null;
    codes = null;
    rowStart = null;
  }

  private short[] levels(int buffer, LevelDecompressor decoder, long declared) throws IOException {
    if (buffer < 0) {
      return new short[0];
    }
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
    short[] r = levels(repBuffer, repDecoder, numRepValues);
    short[] d = levels(defBuffer, defDecoder, numDefValues);
    if ((r.length > 0) != (path.maxRep > 0)) {
      throw corrupt(r.length > 0 ? "has repetition levels but field " + path.name() + " is under no list"
          : "has no repetition levels but field " + path.name() + " is under a list");
    }
    if (d.length == 0 && constant == null && valueBuffer < 0) {
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
      if (code == 0 && constant == null && valueBuffer < 0) {
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

  // The value and level buffers, each read whole once (only when not yet loaded).
  @Override
  void doPlan(long[] rs, long[] re, int count, ReadPlan plan) {
    if (valueBuffer >= 0 && constant == null) {
      planBuffer(plan, valueBuffer, 0, bufferSizes[valueBuffer]);
    }
    if (!simple && rowStart == null) {
      planBuffer(plan, repBuffer, 0, bufferSizes[repBuffer]);
      planBuffer(plan, defBuffer, 0, bufferSizes[defBuffer]);
    }
  }

  @Override
  void doRead(long[] rs, long[] re, int count, LeafEntries out) throws IOException {
    loadValue();
    for (int i = 0; i < count; i++) {
      if (simple) {
        int n = (int) (re[i] - rs[i]);
        out.addCodes(constant == null ? Codes.nullAt(0) : 0, n);
        appendConstant(n, out.values);
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
      appendConstant(visible, out.values);
    }
  }
}
