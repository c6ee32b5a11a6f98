package dev.javelin.format.v21;

import dev.javelin.format.proto.Encodings21.MiniBlockLayout;
import dev.javelin.format.proto.Encodings21.PageLayout;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes a page in the mini-block layout. Values are cut into chunks of a power-of-two number of
 * values (any number for the last chunk), at most 4096 values and 32 KiB each, aiming at about
 * 4 KiB of values. Each chunk carries its share of the repetition and definition levels, stored
 * as plain 16-bit values:
 *
 * <pre>
 * u16 num_levels (0 without levels) | u16 rep bytes? | u16 def bytes? | u16 size of each buffer
 * | pad to 8 | rep | pad | def | pad | buffer 0 | pad | ...
 * </pre>
 *
 * <p>Page buffers: chunk metadata (a u16 per chunk: {@code (8-byte words - 1) << 4 | log2(values)},
 * 0 for the last), the chunks, and with lists the repetition index (per chunk, u64 rows that end
 * in it and u64 levels left over after the last row start).
 */
final class MiniBlockWriter {
  static final int MAX_CHUNK_BYTES = 32 * 1024;
  static final int MAX_CHUNK_VALUES = 4096;
  static final int TARGET_VALUE_BYTES = 4096;
  private static final byte FILL = (byte) 0xFE;

  /** The page cannot be cut into chunks within the limits (too many levels without values). */
  static final class ChunkTooLargeException extends Exception {
    ChunkTooLargeException(String message) {
      super(message, null, false, false);
    }
  }

  private MiniBlockWriter() {}

  static EncodedPage write(LeafEntries page, RepDefLayers layers, short[] def, MiniBlockValueEncoder values)
      throws ChunkTooLargeException {
    int numValues = page.values.count();
    short[] rep = page.rep == null ? null : page.rep.array();
    boolean hasRep = rep != null;
    boolean hasDef = def != null;
    int numLevels = (hasRep || hasDef) ? page.size() : numValues;
    int[] levelOfValue = levelOfValue(page, hasRep && hasDef, numValues);
    int header = pad8(2 + (hasRep ? 2 : 0) + (hasDef ? 2 : 0) + 2 * values.numBuffers());

    List<int[]> chunks = new ArrayList<>(); // {v0, v1, l0, l1, log}
    int v = 0;
    int l = 0;
    while (v < numValues) {
      int rem = numValues - v;
      if (rem <= MAX_CHUNK_VALUES) {
        long size = chunkSize(header, hasRep, hasDef, numLevels - l, values.bufferSizes(v, numValues));
        if (size >= 0 && valueBytes(values.bufferSizes(v, numValues)) <= TARGET_VALUE_BYTES) {
          chunks.add(new int[] {v, numValues, l, numLevels, 0});
          break;
        }
      }
      int n = Integer.highestOneBit(Math.min(MAX_CHUNK_VALUES, rem));
      if (n == rem) {
        n >>= 1;
      }
      boolean placed = false;
      for (; n >= 2; n >>= 1) {
        int l1 = levelEnd(levelOfValue, v + n);
        int[] sizes = values.bufferSizes(v, v + n);
        long size = chunkSize(header, hasRep, hasDef, (hasRep || hasDef) ? l1 - l : 0, sizes);
        if (size >= 0 && (valueBytes(sizes) <= TARGET_VALUE_BYTES || n == 2)) {
          chunks.add(new int[] {v, v + n, l, (hasRep || hasDef) ? l1 : v + n, Integer.numberOfTrailingZeros(n)});
          v += n;
          l = (hasRep || hasDef) ? l1 : v;
          placed = true;
          break;
        }
      }
      if (!placed) {
        if (rem == 1 && chunkSize(header, hasRep, hasDef, numLevels - l, values.bufferSizes(v, numValues)) >= 0) {
          chunks.add(new int[] {v, numValues, l, numLevels, 0});
          break;
        }
        throw new ChunkTooLargeException("values " + v + ".. do not fit a 32 KiB mini-block chunk");
      }
    }

    ByteBuilder data = new ByteBuilder(Math.max(64, (int) Math.min(Integer.MAX_VALUE / 2, page.byteSize() + 64)));
    ByteBuilder meta = new ByteBuilder(2 * chunks.size());
    for (int c = 0; c < chunks.size(); c++) {
      int[] ch = chunks.get(c);
      boolean last = c == chunks.size() - 1;
      int start = data.size();
      int nl = (hasRep || hasDef) ? ch[3] - ch[2] : 0;
      byte[][] bufs = values.encode(ch[0], ch[1]);
      data.appendShort(nl);
      if (hasRep) {
        data.appendShort(2 * nl);
      }
      if (hasDef) {
        data.appendShort(2 * nl);
      }
      for (byte[] b : bufs) {
        data.appendShort(b.length);
      }
      data.padTo(8, FILL);
      if (hasRep) {
        for (int i = ch[2]; i < ch[3]; i++) {
          data.appendShort(rep[i]);
        }
        data.padTo(8, FILL);
      }
      if (hasDef) {
        for (int i = ch[2]; i < ch[3]; i++) {
          data.appendShort(def[i]);
        }
        data.padTo(8, FILL);
      }
      for (byte[] b : bufs) {
        data.append(b, 0, b.length);
        data.padTo(8, FILL);
      }
      int bytes = data.size() - start;
      meta.appendShort(((bytes / 8 - 1) << 4) | (last ? 0 : ch[4]));
    }

    List<ByteBuffer> buffers = new ArrayList<>();
    buffers.add(meta.toBuffer());
    buffers.add(data.toBuffer());
    MiniBlockLayout.Builder layout = MiniBlockLayout.newBuilder()
        .setValueCompression(values.encoding())
        .addAllLayers(layers.asList())
        .setNumBuffers(values.numBuffers())
        .setNumItems(numValues);
    if (hasRep) {
      layout.setRepCompression(Protos21.flat(16));
      layout.setRepetitionIndexDepth(1);
      buffers.add(repetitionIndex(rep, chunks, page.path.maxRep));
    }
    if (hasDef) {
      layout.setDefCompression(Protos21.flat(16));
    }
    return new EncodedPage(buffers, PageLayout.newBuilder().setMiniBlockLayout(layout).build());
  }

  // Per chunk: rows that end in it, and the levels of its trailing partial row (0 if none).
  private static ByteBuffer repetitionIndex(short[] rep, List<int[]> chunks, int maxRep) {
    long[] ends = new long[chunks.size()];
    long[] leftovers = new long[chunks.size()];
    for (int c = 0; c < chunks.size(); c++) {
      int l0 = chunks.get(c)[2];
      int l1 = chunks.get(c)[3];
      boolean last = c == chunks.size() - 1;
      long rows = 0;
      int lastStart = -1;
      for (int i = l0; i < l1; i++) {
        if (rep[i] == maxRep) {
          if (i > l0) {
            rows++;
          }
          lastStart = i;
        }
      }
      long leftover = last ? 0 : (lastStart < 0 ? l1 - l0 : l1 - lastStart);
      if (c > 0 && l1 > l0 && rep[l0] == maxRep && leftovers[c - 1] != 0) {
        // The previous chunk's partial row was in fact complete.
        ends[c - 1]++;
        leftovers[c - 1] = 0;
      }
      if (last) {
        rows++;
      }
      ends[c] = rows;
      leftovers[c] = leftover;
    }
    ByteBuilder b = new ByteBuilder(16 * chunks.size());
    for (int c = 0; c < chunks.size(); c++) {
      b.appendLong(ends[c]);
      b.appendLong(leftovers[c]);
    }
    return b.toBuffer();
  }

  // The level index of each value when some levels have no value (null or empty lists).
  private static int[] levelOfValue(LeafEntries page, boolean needed, int numValues) {
    if (!needed) {
      return null;
    }
    int[] out = new int[numValues];
    int k = 0;
    for (int i = 0; i < page.size(); i++) {
      if (page.visible(i)) {
        out[k++] = i;
      }
    }
    return out;
  }

  private static int levelEnd(int[] levelOfValue, int valueEnd) {
    return levelOfValue == null ? valueEnd : levelOfValue[valueEnd - 1] + 1;
  }

  private static long valueBytes(int[] sizes) {
    long s = 0;
    for (int x : sizes) {
      s += x;
    }
    return s;
  }

  // The chunk's bytes, or -1 when it breaks a limit.
  private static long chunkSize(int header, boolean hasRep, boolean hasDef, int levels, int[] sizes) {
    if (levels > 32767) {
      return -1;
    }
    long size = header;
    if (hasRep) {
      size += pad8(2L * levels);
    }
    if (hasDef) {
      size += pad8(2L * levels);
    }
    for (int s : sizes) {
      if (s > 0xFFFF) {
        return -1;
      }
      size += pad8(s);
    }
    return size <= MAX_CHUNK_BYTES ? size : -1;
  }

  private static int pad8(int n) {
    return (n + 7) & ~7;
  }

  private static long pad8(long n) {
    return (n + 7) & ~7L;
  }
}
