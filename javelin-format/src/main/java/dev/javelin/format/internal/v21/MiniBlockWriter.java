package dev.javelin.format.internal.v21;

import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.internal.encoding.ByteBuilder;
import dev.javelin.format.proto.Encodings21.CompressiveEncoding;
import dev.javelin.format.proto.Encodings21.MiniBlockLayout;
import dev.javelin.format.proto.Encodings21.PageLayout;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes a page in the mini-block layout. Values come either already cut into chunks by their
 * codec ({@link ChunkedValues}: bit-packing, RLE, dictionary indices) or from an encoder that can
 * cut anywhere ({@link MiniBlockValueEncoder}: Flat, Variable, FSST, FixedSizeList), in which case
 * chunks get a power-of-two number of values (any number for the last chunk), at most 4096 values
 * and 32 KiB each, aiming at about 4 KiB of values. Each chunk carries its share of the repetition
 * and definition levels, as plain u16 values or bit-packed ({@link LevelEncoder}):
 *
 * <pre>
 * u16 num_levels (0 without levels) | u16 rep bytes? | u16 def bytes? | u16 size of each buffer
 * | pad to 8 | rep | pad | def | pad | buffer 0 | pad | ...
 * </pre>
 *
 * <p>Page buffers: chunk metadata (a u16 per chunk: {@code (8-byte words - 1) << 4 | log2(values)},
 * 0 for the last), the chunks, the dictionary if any, and with lists the repetition index (per
 * chunk, u64 rows that end in it and u64 levels left over after the last row start).
 *
 * <p>Format 2.2 pages say {@code has_large_chunk}: the chunk metadata words and the chunk headers'
 * buffer sizes are u32 (lance-core 7.0.0 refuses 2.2 mini-block pages without it); the level
 * counts and sizes stay u16, and chunks keep the 2.1 limits. Their levels may be run-length
 * encoded ({@link LevelEncoder}).
 */
final class MiniBlockWriter {
  static final int MAX_CHUNK_BYTES = 32 * 1024;
  static final int MAX_CHUNK_VALUES = 4096;
  static final int TARGET_VALUE_BYTES = 4096;
  private static final int MAX_CHUNK_LEVELS = 32767;
  private static final byte FILL = (byte) 0xFE;

  /** The page cannot be cut into chunks within the limits (too many levels without values). */
  static final class ChunkTooLargeException extends Exception {
    ChunkTooLargeException(String message) {
      super(message, null, false, false);
    }
  }

  /** A page dictionary: its block encoding, item count and buffer. */
  static final class Dictionary {
    final CompressiveEncoding encoding;
    final long numItems;
    final ByteBuffer buffer;

    Dictionary(CompressiveEncoding encoding, long numItems, ByteBuffer buffer) {
      this.encoding = encoding;
      this.numItems = numItems;
      this.buffer = buffer;
    }
  }

  /** The page's levels and how to write them. */
  private static final class Levels {
    final short[] rep;
    final short[] def;
    final boolean any;
    final int numLevels;
    final int[] levelOfValue;
    final LevelEncoder repEnc;
    final LevelEncoder defEnc;
    final int header;
    final boolean largeChunks;

    Levels(LeafEntries page, short[] def, boolean compress, int numBuffers, LanceFileVersion version) {
      this.rep = page.rep == null ? null : page.rep.array();
      this.def = def;
      this.any = rep != null || def != null;
      int numValues = page.values.count();
      this.numLevels = any ? page.size() : numValues;
      this.levelOfValue = levelOfValue(page, rep != null && def != null, numValues);
      this.largeChunks = version == LanceFileVersion.V2_2;
      this.repEnc = rep == null ? null : compress ? LevelEncoder.forLevels(rep, numLevels, largeChunks)
          : LevelEncoder.flat();
      this.defEnc = def == null ? null : compress ? LevelEncoder.forLevels(def, numLevels, largeChunks)
          : LevelEncoder.flat();
      this.header = pad8(2 + (rep != null ? 2 : 0) + (def != null ? 2 : 0) + (largeChunks ? 4 : 2) * numBuffers);
    }

    int levelEnd(int valueEnd) {
      if (!any) {
        return valueEnd;
      }
      return levelOfValue == null ? valueEnd : levelOfValue[valueEnd - 1] + 1;
    }

    // The bytes of a chunk with levels [from, to) (from == to without levels), or -1 when it
    // breaks a limit.
    long chunkSize(int from, int to, int[] sizes) {
      if (to - from > MAX_CHUNK_LEVELS) {
        return -1;
      }
      long size = header;
      if (rep != null) {
        long s = repEnc.size(rep, from, to);
        if (s > 0xFFFF) {
          return -1;
        }
        size += pad8(s);
      }
      if (def != null) {
        long s = defEnc.size(this.def, from, to);
        if (s > 0xFFFF) {
          return -1;
        }
        size += pad8(s);
      }
      for (int s : sizes) {
        if (s > 0xFFFF && !largeChunks) {
          return -1;
        }
        size += pad8(s);
      }
      return size <= MAX_CHUNK_BYTES ? size : -1;
    }
  }

  private MiniBlockWriter() {}

  /** Writes values whose encoder lets this writer choose the chunks. */
  static EncodedPage write(LeafEntries page, RepDefLayers layers, short[] def, MiniBlockValueEncoder values,
      boolean compressLevels, LanceFileVersion version) throws ChunkTooLargeException {
    return write(page, layers, def, values, null, compressLevels, version);
  }

  /** As above, with an optional dictionary (the values are then its indices). */
  static EncodedPage write(LeafEntries page, RepDefLayers layers, short[] def, MiniBlockValueEncoder values,
      Dictionary dictionary, boolean compressLevels, LanceFileVersion version) throws ChunkTooLargeException {
    Levels lv = new Levels(page, def, compressLevels, values.numBuffers(), version);
    List<int[]> chunks = plan(page.values.count(), lv, values);
    return serialize(page, layers, lv, chunks, new Planned(values, chunks), dictionary);
  }

  /** Writes values already cut into chunks, with an optional dictionary. */
  static EncodedPage write(LeafEntries page, RepDefLayers layers, short[] def, ChunkedValues values,
      Dictionary dictionary, boolean compressLevels, LanceFileVersion version) throws ChunkTooLargeException {
    Levels lv = new Levels(page, def, compressLevels, values.numBuffers(), version);
    List<int[]> chunks = new ArrayList<>(values.numChunks());
    int[] sizes = new int[values.numBuffers()];
    int v = 0;
    int l = 0;
    int n = values.numChunks();
    for (int c = 0; c < n; c++) {
      int k = values.chunkValues(c);
      boolean last = c == n - 1;
      int l1 = last ? lv.numLevels : lv.levelEnd(v + k);
      for (int b = 0; b < sizes.length; b++) {
        sizes[b] = values.bufferSize(c, b);
      }
      if (lv.chunkSize(l, lv.any ? l1 : l, sizes) < 0) {
        throw new ChunkTooLargeException("chunk " + c + " of values " + v + ".. breaks the mini-block limits");
      }
      chunks.add(new int[] {v, v + k, l, l1, last ? 0 : Integer.numberOfTrailingZeros(k)});
      v += k;
      l = l1;
    }
    if (v != page.values.count()) {
      throw new IllegalStateException("Chunks hold " + v + " values, the page " + page.values.count());
    }
    return serialize(page, layers, lv, chunks, values, dictionary);
  }

  // Chunks {v0, v1, l0, l1, log} for an encoder that can cut anywhere.
  private static List<int[]> plan(int numValues, Levels lv, MiniBlockValueEncoder values)
      throws ChunkTooLargeException {
    List<int[]> chunks = new ArrayList<>();
    int v = 0;
    int l = 0;
    while (v < numValues) {
      int rem = numValues - v;
      if (rem <= MAX_CHUNK_VALUES) {
        int[] sizes = values.bufferSizes(v, numValues);
        long size = lv.chunkSize(l, lv.any ? lv.numLevels : l, sizes);
        if (size >= 0 && valueBytes(sizes) <= TARGET_VALUE_BYTES) {
          chunks.add(new int[] {v, numValues, l, lv.numLevels, 0});
          break;
        }
      }
      int n = Integer.highestOneBit(Math.min(MAX_CHUNK_VALUES, rem));
      if (n == rem) {
        n >>= 1;
      }
      boolean placed = false;
      for (; n >= 2; n >>= 1) {
        int l1 = lv.levelEnd(v + n);
        int[] sizes = values.bufferSizes(v, v + n);
        long size = lv.chunkSize(l, lv.any ? l1 : l, sizes);
        if (size >= 0 && (valueBytes(sizes) <= TARGET_VALUE_BYTES || n == 2)) {
          chunks.add(new int[] {v, v + n, l, l1, Integer.numberOfTrailingZeros(n)});
          v += n;
          l = l1;
          placed = true;
          break;
        }
      }
      if (!placed) {
        if (rem == 1 && lv.chunkSize(l, lv.any ? lv.numLevels : l, values.bufferSizes(v, numValues)) >= 0) {
          chunks.add(new int[] {v, numValues, l, lv.numLevels, 0});
          break;
        }
        throw new ChunkTooLargeException("values " + v + ".. do not fit a 32 KiB mini-block chunk");
      }
    }
    return chunks;
  }

  private static EncodedPage serialize(LeafEntries page, RepDefLayers layers, Levels lv, List<int[]> chunks,
      ChunkedValues values, Dictionary dictionary) {
    boolean hasRep = lv.rep != null;
    boolean hasDef = lv.def != null;
    int numBuffers = values.numBuffers();
    // The chunks' exact total, so the page is one allocation and never regrown (pages are megabytes).
    long total = 0;
    int[] sizes = new int[numBuffers];
    for (int c = 0; c < chunks.size(); c++) {
      int[] ch = chunks.get(c);
      for (int b = 0; b < numBuffers; b++) {
        sizes[b] = values.bufferSize(c, b);
      }
      total += Math.max(0, lv.chunkSize(ch[2], lv.any ? ch[3] : ch[2], sizes));
    }
    ByteBuilder data = new ByteBuilder((int) Math.min(Integer.MAX_VALUE / 2, total));
    ByteBuilder meta = new ByteBuilder((lv.largeChunks ? 4 : 2) * chunks.size());
    for (int c = 0; c < chunks.size(); c++) {
      int[] ch = chunks.get(c);
      boolean last = c == chunks.size() - 1;
      int start = data.size();
      int nl = lv.any ? ch[3] - ch[2] : 0;
      data.appendShort(nl);
      if (hasRep) {
        data.appendShort((int) lv.repEnc.size(lv.rep, ch[2], ch[3]));
      }
      if (hasDef) {
        data.appendShort((int) lv.defEnc.size(lv.def, ch[2], ch[3]));
      }
      for (int b = 0; b < numBuffers; b++) {
        if (lv.largeChunks) {
          data.appendInt(values.bufferSize(c, b));
        } else {
          data.appendShort(values.bufferSize(c, b));
        }
      }
      data.padTo(8, FILL);
      if (hasRep) {
        lv.repEnc.write(lv.rep, ch[2], ch[3], data);
        data.padTo(8, FILL);
      }
      if (hasDef) {
        lv.defEnc.write(lv.def, ch[2], ch[3], data);
        data.padTo(8, FILL);
      }
      for (int b = 0; b < numBuffers; b++) {
        values.writeBuffer(c, b, data);
        data.padTo(8, FILL);
      }
      int bytes = data.size() - start;
      int word = ((bytes / 8 - 1) << 4) | (last ? 0 : ch[4]);
      if (lv.largeChunks) {
        meta.appendInt(word);
      } else {
        meta.appendShort(word);
      }
    }

    List<ByteBuffer> buffers = new ArrayList<>();
    buffers.add(meta.toBuffer());
    buffers.add(data.toBuffer());
    MiniBlockLayout.Builder layout = MiniBlockLayout.newBuilder()
        .setValueCompression(values.encoding())
        .addAllLayers(layers.asList())
        .setNumBuffers(numBuffers)
        .setNumItems(page.values.count())
        .setHasLargeChunk(lv.largeChunks);
    if (dictionary != null) {
      layout.setDictionary(dictionary.encoding).setNumDictionaryItems(dictionary.numItems);
      buffers.add(dictionary.buffer);
    }
    if (hasRep) {
      layout.setRepCompression(lv.repEnc.encoding());
      layout.setRepetitionIndexDepth(1);
      buffers.add(repetitionIndex(lv.rep, chunks, page.path.maxRep));
    }
    if (hasDef) {
      layout.setDefCompression(lv.defEnc.encoding());
    }
    return new EncodedPage(buffers, PageLayout.newBuilder().setMiniBlockLayout(layout).build());
  }

  /** A {@link MiniBlockValueEncoder} seen through the chunks planned for it. */
  private static final class Planned implements ChunkedValues {
    private final MiniBlockValueEncoder values;
    private final List<int[]> chunks;

    Planned(MiniBlockValueEncoder values, List<int[]> chunks) {
      this.values = values;
      this.chunks = chunks;
    }

    @Override
    public CompressiveEncoding encoding() {
      return values.encoding();
    }

    @Override
    public int numBuffers() {
      return values.numBuffers();
    }

    @Override
    public int numChunks() {
      return chunks.size();
    }

    @Override
    public int chunkValues(int c) {
      return chunks.get(c)[1] - chunks.get(c)[0];
    }

    @Override
    public int bufferSize(int c, int b) {
      return values.bufferSizes(chunks.get(c)[0], chunks.get(c)[1])[b];
    }

    @Override
    public void writeBuffer(int c, int b, ByteBuilder out) {
      int before = out.size();
      values.writeChunk(chunks.get(c)[0], chunks.get(c)[1], b, out);
      if (out.size() - before != bufferSize(c, b)) {
        throw new IllegalStateException("Buffer " + b + " of chunk " + c + " has " + (out.size() - before)
            + " bytes, not the " + bufferSize(c, b) + " its encoder announced");
      }
    }
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

  private static long valueBytes(int[] sizes) {
    long s = 0;
    for (int x : sizes) {
      s += x;
    }
    return s;
  }

  private static int pad8(int n) {
    return (n + 7) & ~7;
  }

  private static long pad8(long n) {
    return (n + 7) & ~7L;
  }
}
