package dev.javelin.format.internal.v21;

import dev.javelin.format.exceptions.BadDataException;
import dev.javelin.format.exceptions.UnsupportedEncodingException;
import dev.javelin.format.internal.encoding.ByteBuilder;
import dev.javelin.format.internal.encoding.ColumnSource;
import dev.javelin.format.internal.encoding.ReadPlan;
import dev.javelin.format.proto.Encodings21.FullZipLayout;
import dev.javelin.format.proto.File2Protos.ColumnMetadata;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;

/**
 * Reads a full-zip page (see {@link FullZipWriter} for the bytes). Fixed-width values without
 * lists are found by arithmetic; otherwise the repetition index gives each requested run of rows
 * its byte range, so a request reads two index entries and the rows' bytes.
 */
final class FullZipPageDecoder extends PageDecoder {
  private final RepDefLayers layers;
  private final int bitsRep;
  private final int bitsDef;
  private final int cwBytes;
  private final boolean variable;
  private final int lengthBytes;
  private final FixedPerValueDecompressor fixed;
  private final VariablePerValueDecompressor var;
  private final int indexWidth;
  private final int maxRep;
  /** The fixed-width values of the last request with their control words removed; reused. */
  private ByteBuilder unzipped;
  /** For {@link #readFloats}: the page's data buffer as floats, viewed in mapped memory. */
  private FloatBuffer pageFloats;

  FullZipPageDecoder(ColumnSource source, LeafPath path, int column, int page, ColumnMetadata.Page meta,
      FullZipLayout layout) {
    super(source, path, column, page, meta);
    String[] problem = new String[1];
    this.layers = RepDefLayers.fromFile(layout.getLayersList(), path, problem);
    if (layers == null) {
      throw corrupt(problem[0]);
    }
    if (!layout.hasValueCompression()) {
      throw corrupt("full-zip layout has no value encoding");
    }
    this.bitsRep = layout.getBitsRep();
    this.bitsDef = layout.getBitsDef();
    if (bitsRep < 0 || bitsDef < 0 || bitsRep > 16 || bitsDef > 16) {
      throw corrupt("full-zip control words have " + bitsRep + " repetition and " + bitsDef + " definition bits");
    }
    int total = bitsRep + bitsDef;
    this.cwBytes = total == 0 ? 0 : total <= 8 ? 1 : total <= 16 ? 2 : 4;
    this.maxRep = path.maxRep;
    if ((bitsRep > 0) != (maxRep > 0)) {
      throw corrupt(bitsRep > 0 ? "has repetition levels but field " + path.name() + " is under no list"
          : "has no repetition levels but field " + path.name() + " is under a list");
    }
    try {
      switch (layout.getDetailsCase()) {
        case BITS_PER_VALUE:
          this.variable = false;
          this.lengthBytes = 0;
          this.fixed = Decompressors.fixedPerValue(layout.getValueCompression(), path.type);
          this.var = null;
          if ((long) fixed.bytesPerValue() * 8 != layout.getBitsPerValue()) {
            throw corrupt("full-zip layout says " + layout.getBitsPerValue() + " bits per value but its encoding has "
                + (fixed.bytesPerValue() * 8L));
          }
          if (path.type.bitsPerItem % 8 != 0 && !(fixed instanceof ByteBoolDecompressor)) {
            // Lance does not read these either: full-zip values must be whole bytes (booleans are
            // widened to a byte each, which ByteBoolDecompressor reads).
            throw unsupported("full-zip pages of bit-packed values are not supported");
          }
          break;
        case BITS_PER_OFFSET:
          this.variable = true;
          if (layout.getBitsPerOffset() != 32 && layout.getBitsPerOffset() != 64) {
            throw corrupt("full-zip layout has " + layout.getBitsPerOffset() + " bits per offset");
          }
          this.lengthBytes = layout.getBitsPerOffset() / 8;
          this.fixed = null;
          this.var = Decompressors.variablePerValue(layout.getValueCompression(), path.type);
          break;
        default:
          throw corrupt("full-zip layout has neither bits per value nor bits per offset");
      }
    } catch (UnsupportedEncodingException e) {
      throw unsupported(e.getMessage());
    } catch (BadDataException e) {
      throw corrupt(e.getMessage());
    }
    boolean needIndex = bitsRep > 0 || variable;
    requireBuffers(needIndex ? 2 : 1);
    if (needIndex) {
      long entries = numRows + 1;
      long size = bufferSizes[1];
      long w = size / entries;
      if (size % entries != 0 || (w != 1 && w != 2 && w != 4 && w != 8)) {
        throw corrupt("repetition index has " + size + " bytes, not 1, 2, 4 or 8 per each of " + entries + " entries");
      }
      this.indexWidth = (int) w;
    } else {
      this.indexWidth = 0;
      long need = numRows * (cwBytes + (long) fixed.bytesPerValue());
      if (bufferSizes[0] < need) {
        throw corrupt("data buffer has " + bufferSizes[0] + " bytes but " + numRows + " rows need " + need);
      }
    }
  }

  @Override
  void doRead(long[] rs, long[] re, int count, LeafEntries out) throws IOException {
    if (!variable) {
      // Room for every value at once: growing by doubling from nothing copied (and zeroed) the
      // values several times over, megabytes per take of a few thousand vectors.
      long values = 0;
      for (int i = 0; i < count; i++) {
        values += re[i] - rs[i];
      }
      out.values.reserveBytes(values * fixed.bytesPerValue());
    }
    // Fixed-width values are decoded with absolute reads, so a mapped file's memory is read in
    // place rather than first copied into a fresh array per run of rows.
    boolean view = !variable && source.mapped();
    for (int i = 0; i < count; i++) {
      long a = rs[i];
      long b = re[i];
      long start;
      long end;
      if (indexWidth == 0) {
        long per = cwBytes + (long) fixed.bytesPerValue();
        start = a * per;
        end = b * per;
      } else {
        long[] se = indexEntries(a, b);
        start = se[0];
        end = se[1];
        if (start > end || end > bufferSizes[0]) {
          throw corrupt("repetition index gives rows " + a + ".." + b + " bytes " + start + ".." + end
              + " of a " + bufferSizes[0] + "-byte data buffer");
        }
      }
      if (end - start > Integer.MAX_VALUE - 64) {
        throw unsupported("rows " + a + ".." + b + " span more than 2 GiB");
      }
      ByteBuffer data = view ? viewBuffer(0, start, end - start) : readBuffer(0, start, end - start);
      if (cwBytes == 0 && !variable) {
        int n = (int) (b - a);
        out.addCodes(0, n);
        fixed.decode(data, 0, n, out.values);
      } else {
        unzip(data, (int) (end - start), b - a, out);
      }
    }
  }

  // Fixed-width rows are found by arithmetic; otherwise the repetition index entries of every run
  // are fetched first (each distinct entry once) and give the runs' byte ranges.
  @Override
  void doPlan(long[] rs, long[] re, int count, ReadPlan plan) throws IOException {
    if (indexWidth == 0) {
      long per = cwBytes + (long) fixed.bytesPerValue();
      for (int i = 0; i < count; i++) {
        planBuffer(plan, 0, rs[i] * per, (re[i] - rs[i]) * per);
      }
      return;
    }
    ReadPlan entries = new ReadPlan();
    doPlanMetadata(rs, re, count, entries);
    source.fetch(entries); // a no-op when the metadata round fetched them
    for (int i = 0; i < count; i++) {
      long[] se = indexEntries(rs[i], re[i]);
      if (se[0] <= se[1]) {
        planBuffer(plan, 0, se[0], se[1] - se[0]);
      }
    }
  }

  // The repetition index entries of the runs, as indexEntries reads them.
  @Override
  void doPlanMetadata(long[] rs, long[] re, int count, ReadPlan plan) {
    int w = indexWidth;
    if (w == 0) {
      return;
    }
    for (int i = 0; i < count; i++) {
      if ((re[i] - rs[i]) * w <= 4096) {
        planBuffer(plan, 1, rs[i] * w, (re[i] - rs[i] + 1) * w);
      } else {
        planBuffer(plan, 1, rs[i] * w, w);
        planBuffer(plan, 1, re[i] * w, w);
      }
    }
  }

  // Plain floats: fixed-width values found by arithmetic, no control words (no nulls, no lists),
  // and exactly dim floats a value (an FSL with validity bytes, or another width, has more).
  @Override
  boolean plainFloats(int dim) {
    return !variable && indexWidth == 0 && cwBytes == 0 && fixed.bytesPerValue() == 4L * dim;
  }

  // From a mapped page: one view of the whole page, then one bulk copy per row (touching rows
  // ahead to overlap their memory reads was measured: no gain). Otherwise each run of adjacent
  // rows is one read.
  @Override
  void readFloats(long[] rows, int from, int to, long firstRow, int dim, float[] out, int outOffset)
      throws IOException {
    long per = 4L * dim;
    long size = numRows * per;
    if (pageFloats == null && size <= Integer.MAX_VALUE - 64 && source.viewable(bufferOffsets[0], size)) {
      pageFloats = viewBuffer(0, 0, size).asFloatBuffer();
    }
    if (pageFloats != null) {
      FloatBuffer floats = pageFloats;
      for (int i = from; i < to; i++) {
        long r = rows[i] - firstRow;
        checkRow(r);
        floats.get((int) (r * dim), out, outOffset + (i - from) * dim, dim);
      }
      return;
    }
    int at = outOffset;
    int i = from;
    while (i < to) {
      long a = rows[i] - firstRow;
      int j = i + 1;
      while (j < to && rows[j] == rows[j - 1] + 1) {
        j++;
      }
      long n = j - i;
      checkRow(a);
      checkRow(a + n - 1);
      ByteBuffer bytes = readBuffer(0, a * per, n * per);
      bytes.asFloatBuffer().get(0, out, at, (int) (n * dim));
      at += (int) (n * dim);
      i = j;
    }
  }

  private void checkRow(long r) {
    if (r < 0 || r >= numRows) {
      throw new IllegalArgumentException("Row " + r + " is outside the page's " + numRows + " rows");
    }
  }

  @Override
  void release() {
    unzipped = null;
    pageFloats = null;
  }

  private long[] indexEntries(long a, long b) throws IOException {
    int w = indexWidth;
    if ((b - a) * w <= 4096) {
      ByteBuffer idx = readBuffer(1, a * w, (b - a + 1) * w);
      return new long[] {unsigned(idx, 0, w), unsigned(idx, (int) ((b - a) * w), w)};
    }
    ByteBuffer s = readBuffer(1, a * w, w);
    ByteBuffer e = readBuffer(1, b * w, w);
    return new long[] {unsigned(s, 0, w), unsigned(e, 0, w)};
  }

  private void unzip(ByteBuffer data, int len, long rows, LeafEntries out) {
    int mask = (1 << bitsDef) - 1;
    boolean both = bitsRep > 0 && bitsDef > 0;
    ByteBuilder fixedBytes = null;
    // Large values (vectors) go straight to the output one by one; small ones are first gathered
    // without their control words and decoded together.
    boolean perValue = !variable && fixed.bytesPerValue() >= 64;
    if (!variable && !perValue) {
      if (unzipped == null) {
        unzipped = new ByteBuilder(len);
      }
      fixedBytes = unzipped;
      fixedBytes.reset();
      fixedBytes.ensureRoom(len);
    }
    int fixedCount = 0;
    long rowsSeen = 0;
    int pos = 0;
    while (pos < len) {
      int word = 0;
      if (cwBytes > 0) {
        if (pos + cwBytes > len) {
          throw new BadDataException("control word at byte " + pos + " passes the end of the rows' bytes");
        }
        word = (int) unsigned(data, pos, cwBytes);
        pos += cwBytes;
      }
      int rep = bitsRep > 0 ? word >>> bitsDef : 0;
      int def = bitsDef > 0 ? word & mask : 0;
      boolean newRow = bitsRep == 0 || rep == maxRep;
      if (rep > maxRep) {
        throw new BadDataException("repetition level " + rep + " is above the maximum " + maxRep);
      }
      if (newRow) {
        rowsSeen++;
      } else if (rowsSeen == 0) {
        throw new BadDataException("rows' bytes do not start with a new row");
      }
      int code = layers.codeOf(def);
      if (code < 0) {
        throw new BadDataException("definition level " + def + " is above the maximum " + layers.maxDef);
      }
      out.add(rep, code);
      boolean visible = !both || def <= layers.maxVisibleLevel;
      if (!visible) {
        continue;
      }
      if (variable) {
        if (def == 0) {
          if (pos + lengthBytes > len) {
            throw new BadDataException("value length at byte " + pos + " passes the end of the rows' bytes");
          }
          long vlen = unsigned(data, pos, lengthBytes);
          pos += lengthBytes;
          if (vlen < 0 || vlen > len - pos) {
            throw new BadDataException(
                "value of " + vlen + " bytes at byte " + pos + " passes the end of the rows' bytes");
          }
          var.decode(data, pos, (int) vlen, out.values);
          pos += (int) vlen;
        } else {
          out.values.appendNulls(1);
        }
      } else {
        int bpv = fixed.bytesPerValue();
        if (pos + bpv > len) {
          throw new BadDataException("value at byte " + pos + " passes the end of the rows' bytes");
        }
        if (perValue) {
          fixed.decode(data, pos, 1, out.values);
        } else {
          fixedBytes.append(data, pos, bpv);
          fixedCount++;
        }
        pos += bpv;
      }
    }
    if (rowsSeen != rows) {
      throw new BadDataException("found " + rowsSeen + " rows where " + rows + " were expected");
    }
    if (!variable && fixedCount > 0) {
      fixed.decode(ByteBuffer.wrap(fixedBytes.array(), 0, fixedBytes.size()).order(ByteOrder.LITTLE_ENDIAN),
          0, fixedCount, out.values);
    }
  }
}
