package dev.javelin.format.internal.v21;

import dev.javelin.format.exceptions.BadDataException;
import dev.javelin.format.exceptions.UnsupportedEncodingException;
import dev.javelin.format.internal.compression.bitpack.FastLanes;
import dev.javelin.format.internal.encoding.ColumnSource;
import dev.javelin.format.internal.encoding.PageCache;
import dev.javelin.format.internal.encoding.ReadPlan;
import dev.javelin.format.proto.Encodings21.MiniBlockLayout;
import dev.javelin.format.proto.File2Protos.ColumnMetadata;
import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Reads a mini-block page (see {@link MiniBlockWriter} for the bytes). On first use it loads the
 * chunk metadata, the dictionary (buffer 2, when the layout has one) and, for leaves under lists,
 * the repetition index (the last buffer); then each request reads only the chunks that hold the
 * requested rows, in one read per run of chunks. The last decoded chunk is kept, so batches that
 * share a chunk decode it once.
 *
 * <p>Each chunk's values are decoded by the layout's value encoding ({@link Decompressors}); in a
 * dictionary page they are indices, replaced by the dictionary's items as the chunk is decoded.
 * Format 2.2 pages with {@code has_large_chunk} use 32-bit chunk metadata words and chunk buffer
 * sizes instead of 16-bit ones.
 */
final class MiniBlockPageDecoder extends PageDecoder {
  /**
   * The most values a chunk may hold: Lance writes at most 4096 (the 4-bit count field allows
   * 2^15); this bounds what a lying item count can make the reader allocate.
   */
  static final int MAX_CHUNK_VALUES = 1 << 16;
  /** The most items a dictionary may have; more is refused as unsupported. */
  static final int MAX_DICTIONARY_ITEMS = 1 << 22;

  private final RepDefLayers layers;
  private final boolean largeChunks;
  private final MiniBlockDecompressor values;
  /** With a dictionary: the type of the indices the chunks hold; otherwise null. */
  private final LeafType indexType;
  private final BlockDecompressor dictionaryDecoder;
  private final long dictionaryItems;
  private final LevelDecompressor repDecoder;
  private final LevelDecompressor defDecoder;
  private final int numBuffers;
  private final long numItems;
  private final int depth;
  private final int maxRep;
  private final int[] depthOfCode;

  // Page metadata, loaded on first use.
  private int numChunks = -1;
  private int[] chunkItems;
  private long[] itemStart;
  /** log2 of the item count of every chunk but the last (which holds no more), or -1. */
  private int chunkShift = -1;
  private long[] chunkOffset;
  private long[] firstRow;
  private long[] starts;
  private boolean[] preamble;
  private boolean[] trailer;
  private LeafValues dictionary;

  private int cachedIndex = -1;
  private Chunk cached;
  /** A flat chunk's values container no chunk uses any more, for the next partial chunk. */
  private LeafValues spare;

  /** A decoded chunk: its levels (as canonical codes) and values. */
  private static final class Chunk {
    int numLevels;
    short[] rep;
    short[] codes;
    LeafValues values;
  }

  MiniBlockPageDecoder(ColumnSource source, LeafPath path, int column, int page, ColumnMetadata.Page meta,
      MiniBlockLayout layout) {
    super(source, path, column, page, meta);
    if (!layout.hasValueCompression()) {
      throw corrupt("mini-block layout has no value encoding");
    }
    String[] problem = new String[1];
    this.layers = RepDefLayers.fromFile(layout.getLayersList(), path, problem);
    if (layers == null) {
      throw corrupt(problem[0]);
    }
    this.largeChunks = layout.getHasLargeChunk();
    try {
      if (layout.hasDictionary()) {
        int indexBits = Decompressors.producedBits(layout.getValueCompression());
        if (indexBits != 8 && indexBits != 16 && indexBits != 32 && indexBits != 64) {
          throw new BadDataException("dictionary indices have " + indexBits + " bits");
        }
        this.indexType = LeafType.fixed(indexBits);
        this.values = Decompressors.miniBlock(layout.getValueCompression(), indexType);
        this.dictionaryDecoder = Decompressors.dictionary(layout.getDictionary(), path.type);
        this.dictionaryItems = layout.getNumDictionaryItems();
      } else {
        this.indexType = null;
        this.values = Decompressors.miniBlock(layout.getValueCompression(), path.type);
        this.dictionaryDecoder = null;
        this.dictionaryItems = 0;
      }
      this.repDecoder = layout.hasRepCompression() ? Decompressors.levels(layout.getRepCompression()) : null;
      this.defDecoder = layout.hasDefCompression() ? Decompressors.levels(layout.getDefCompression()) : null;
    } catch (UnsupportedEncodingException e) {
      throw unsupported(e.getMessage());
    } catch (BadDataException e) {
      throw corrupt(e.getMessage());
    }
    if (values.numBuffers() != layout.getNumBuffers()) {
      throw corrupt("mini-block layout says " + layout.getNumBuffers() + " buffers per chunk but its value encoding has "
          + values.numBuffers());
    }
    this.numBuffers = values.numBuffers();
    this.maxRep = path.maxRep;
    this.depthOfCode = path.depthTable();
    if ((repDecoder != null) != (maxRep > 0)) {
      throw corrupt(repDecoder != null ? "has repetition levels but field " + path.name() + " is under no list"
          : "has no repetition levels but field " + path.name() + " is under a list");
    }
    this.depth = layout.getRepetitionIndexDepth();
    if (repDecoder != null && depth < 1) {
      throw corrupt("has repetition levels but no repetition index");
    }
    if (depth > 64) {
      throw corrupt("repetition index depth " + Integer.toUnsignedString(depth) + " is too deep");
    }
    this.numItems = layout.getNumItems();
    requireBuffers(2 + (dictionaryDecoder != null ? 1 : 0) + (repDecoder != null ? 1 : 0));
  }

  @Override
  void release() {
    numChunks = -1;
    chunkItems = null;
    itemStart = null;
    chunkShift = -1;
    chunkOffset = null;
    firstRow = null;
    starts = null;
    preamble = null;
    trailer = null;
    dictionary = null;
    cachedIndex = -1;
    cached = null;
    spare = null;
  }

  /**
   * A page's metadata as {@link #loadMeta} loads it, shared through the file's
   * {@link PageCache} by the decoders of every reader of the file. Never modified.
   */
  private static final class Meta {
    final int numChunks;
    final int[] chunkItems;
    final long[] itemStart;
    final int chunkShift;
    final long[] chunkOffset;
    final long[] firstRow;
    final long[] starts;
    final boolean[] preamble;
    final boolean[] trailer;
    final LeafValues dictionary;

    Meta(MiniBlockPageDecoder d) {
      this.numChunks = d.numChunks;
      this.chunkItems = d.chunkItems;
      this.itemStart = d.itemStart;
      this.chunkShift = d.chunkShift;
      this.chunkOffset = d.chunkOffset;
      this.firstRow = d.firstRow;
      this.starts = d.starts;
      this.preamble = d.preamble;
      this.trailer = d.trailer;
      this.dictionary = d.dictionary;
    }

    long bytes() {
      long b = 64 + 4L * numChunks + 16L * (numChunks + 1);
      if (firstRow != null) {
        b += 18L * numChunks;
      }
      return b + (dictionary == null ? 0 : dictionary.byteSize() + 64);
    }

    void applyTo(MiniBlockPageDecoder d) {
      d.chunkItems = chunkItems;
      d.itemStart = itemStart;
      d.chunkShift = chunkShift;
      d.chunkOffset = chunkOffset;
      d.firstRow = firstRow;
      d.starts = starts;
      d.preamble = preamble;
      d.trailer = trailer;
      d.dictionary = dictionary;
      d.numChunks = numChunks;
    }
  }

  private void loadMeta() throws IOException {
    if (numChunks >= 0) {
      return;
    }
    PageCache cache = source.pageCache();
    long key = PageCache.key(column, page, 0);
    if (cache != null && cache.get(key) instanceof Meta m) {
      m.applyTo(this);
      return;
    }
    loadMetaFromFile();
    if (cache != null) {
      Meta m = new Meta(this);
      cache.put(key, m, m.bytes());
    }
  }

  private void loadMetaFromFile() throws IOException {
    long metaSize = bufferSizes[0];
    int wordBytes = largeChunks ? 4 : 2;
    if (metaSize % wordBytes != 0 || metaSize == 0) {
      throw corrupt("chunk metadata has " + metaSize + " bytes");
    }
    long n = metaSize / wordBytes;
    if (n > bufferSizes[1] / 8) {
      throw corrupt("chunk metadata lists " + n + " chunks but the chunk buffer has only " + bufferSizes[1] + " bytes");
    }
    if (numItems < 1) {
      throw corrupt("mini-block page has " + numItems + " items");
    }
    ByteBuffer meta = readBuffer(0, 0, metaSize);
    int chunks = (int) n;
    int[] items = new int[chunks];
    long[] iStart = new long[chunks + 1];
    long[] offs = new long[chunks + 1];
    long counter = 0;
    long offset = 0;
    for (int c = 0; c < chunks; c++) {
      long w = largeChunks ? meta.getInt(4 * c) & 0xFFFFFFFFL : meta.getShort(2 * c) & 0xFFFF;
      long bytes = ((w >>> 4) + 1L) * 8;
      long count;
      if (c < chunks - 1) {
        count = 1L << (w & 0xF);
        if ((w & 0xF) == 0) {
          throw corrupt("chunk " + c + " is not the last but holds no power-of-two count of values");
        }
      } else {
        count = numItems - counter;
        if (count < 1) {
          throw corrupt("chunk metadata counts more values than the page's " + numItems);
        }
        if (count > MAX_CHUNK_VALUES) {
          throw corrupt("the last chunk would hold " + count + " values; chunks hold at most " + MAX_CHUNK_VALUES);
        }
      }
      if (counter + count > numItems || count > Integer.MAX_VALUE) {
        throw corrupt("chunk metadata counts more values than the page's " + numItems);
      }
      items[c] = (int) count;
      iStart[c] = counter;
      offs[c] = offset;
      counter += count;
      offset += bytes;
      if (offset > bufferSizes[1]) {
        throw corrupt("chunk " + c + " ends at byte " + offset + ", past the chunk buffer's " + bufferSizes[1]);
      }
    }
    iStart[chunks] = counter;
    offs[chunks] = offset;
    if (counter != numItems) {
      throw corrupt("chunks hold " + counter + " values but the page has " + numItems);
    }
    if (dictionaryDecoder != null) {
      loadDictionary();
    }
    if (repDecoder != null) {
      loadRepIndex(chunks);
    } else if (numItems != numRows) {
      throw corrupt("page has " + numRows + " rows but " + numItems + " values and no lists");
    }
    this.chunkItems = items;
    this.itemStart = iStart;
    this.chunkShift = uniformShift(items);
    this.chunkOffset = offs;
    this.numChunks = chunks;
  }

  private void loadDictionary() throws IOException {
    long size = bufferSizes[2];
    if (dictionaryItems < 0) {
      throw corrupt("dictionary has " + Long.toUnsignedString(dictionaryItems) + " items");
    }
    if (dictionaryItems > MAX_DICTIONARY_ITEMS) {
      throw unsupported("dictionary of " + dictionaryItems + " items is larger than the " + MAX_DICTIONARY_ITEMS
          + " Javelin reads");
    }
    if (size > Integer.MAX_VALUE - 64) {
      throw unsupported("dictionary of " + size + " bytes is too large");
    }
    ByteBuffer b = readBuffer(2, 0, size).slice().order(ByteOrder.LITTLE_ENDIAN);
    LeafValues d = LeafValues.create(path.type);
    try {
      dictionaryDecoder.decode(b, (int) dictionaryItems, d);
    } catch (BadDataException | IllegalArgumentException | IndexOutOfBoundsException | ArithmeticException e) {
      throw corrupt("dictionary: " + e.getMessage());
    }
    if (d.count() != dictionaryItems) {
      throw corrupt("dictionary decoded " + d.count() + " items, expected " + dictionaryItems);
    }
    this.dictionary = d;
  }

  private void loadRepIndex(int chunks) throws IOException {
    int idx = bufferSizes.length - 1;
    long stride = depth + 1L;
    if (bufferSizes[idx] != chunks * stride * 8) {
      throw corrupt("repetition index has " + bufferSizes[idx] + " bytes, expected " + (chunks * stride * 8)
          + " for " + chunks + " chunks");
    }
    ByteBuffer b = readBuffer(idx, 0, bufferSizes[idx]);
    long[] first = new long[chunks];
    long[] st = new long[chunks];
    boolean[] pre = new boolean[chunks];
    boolean[] trail = new boolean[chunks];
    boolean hasPreamble = false;
    long row = 0;
    for (int c = 0; c < chunks; c++) {
      long ends = b.getLong((int) (c * stride * 8));
      long partial = b.getLong((int) (c * stride * 8 + 8));
      if (ends < 0 || partial < 0 || ends > numRows) {
        throw corrupt("repetition index entry " + c + " is (" + ends + ", " + partial + ")");
      }
      boolean hasTrailer = partial > 0;
      long s = ends + (hasTrailer ? 1 : 0) - (hasPreamble ? 1 : 0);
      if (s < 0) {
        throw corrupt("repetition index entry " + c + " starts a negative number of rows");
      }
      first[c] = row;
      st[c] = s;
      pre[c] = hasPreamble;
      trail[c] = hasTrailer;
      hasPreamble = hasTrailer;
      row += s;
      if (row > numRows) {
        break;
      }
    }
    if (row != numRows) {
      throw corrupt("repetition index counts " + row + " rows but the page has " + numRows);
    }
    this.firstRow = first;
    this.starts = st;
    this.preamble = pre;
    this.trailer = trail;
  }

  // When every chunk but the last holds the same power of two of items (as writers make them),
  // a chunk is found by a shift instead of a search.
  private static int uniformShift(int[] items) {
    int n = items.length;
    if (n == 0 || Integer.bitCount(items[0]) != 1) {
      return -1;
    }
    for (int c = 1; c < n - 1; c++) {
      if (items[c] != items[0]) {
        return -1;
      }
    }
    return n > 1 && items[n - 1] > items[0] ? -1 : Integer.numberOfTrailingZeros(items[0]);
  }

  // The chunk metadata, dictionary and repetition index, unless loaded or cached.
  @Override
  void doPlanMetadata(long[] rs, long[] re, int count, ReadPlan plan) {
    if (numChunks >= 0 || source.pageCache() != null
        && source.pageCache().get(PageCache.key(column, page, 0)) instanceof Meta) {
      return;
    }
    planBuffer(plan, 0, 0, bufferSizes[0]);
    if (dictionaryDecoder != null) {
      planBuffer(plan, 2, 0, bufferSizes[2]);
    }
    if (repDecoder != null) {
      planBuffer(plan, bufferSizes.length - 1, 0, bufferSizes[bufferSizes.length - 1]);
    }
  }

  // The chunks holding the rows, found as the reads below find them (metadata is loaded now).
  @Override
  void doPlan(long[] rs, long[] re, int count, ReadPlan plan) throws IOException {
    // Fetched through the source (a no-op when the metadata round fetched it), so the chunk reads,
    // coalesced over it, copy it rather than read it again.
    ReadPlan meta = new ReadPlan();
    doPlanMetadata(rs, re, count, meta);
    source.fetch(meta);
    loadMeta();
    for (int i = 0; i < count; i++) {
      int c0;
      int c1;
      if (repDecoder != null) {
        c0 = chunkOfRow(rs[i]);
        c1 = lastChunkOfRows(re[i]);
      } else {
        c0 = chunkOfItem(rs[i]);
        c1 = chunkOfItem(re[i] - 1);
      }
      planBuffer(plan, 1, chunkOffset[c0], chunkOffset[c1 + 1] - chunkOffset[c0]);
    }
  }

  // The last chunk holding levels of the rows that end at row b (exclusive): the one where row b - 1
  // starts, and those its trailer continues into.
  private int lastChunkOfRows(long b) {
    int z = chunkOfRow(b - 1);
    while (z + 1 < numChunks && trailer[z] && firstRow[z] + starts[z] - 1 == b - 1) {
      z++;
    }
    return z;
  }

  @Override
  void doRead(long[] rs, long[] re, int count, LeafEntries out) throws IOException {
    loadMeta();
    if (repDecoder != null) {
      for (int i = 0; i < count; i++) {
        readRepeated(rs[i], re[i], out);
      }
      return;
    }
    // A take of scattered rows from a mapped file: one view of the whole chunk buffer serves every
    // row, and the rows' bytes are touched first, all at once, so their cache misses overlap
    // instead of being waited for one by one while decoding.
    ByteBuffer page = null;
    InlineBitpackingDecompressor blocks = blockwise(out);
    if (blocks != null && count > 1 && source.mapped() && bufferSizes[1] <= Integer.MAX_VALUE - 64) {
      page = viewBuffer(1, 0, bufferSizes[1]);
      if (page.hasArray()) {
        page = null; // not mapped after all (a segment boundary): read per row as before
      } else {
        touch(rs, re, count, page, blocks.bits());
      }
    }
    for (int i = 0; i < count; i++) {
      readFlat(rs[i], re[i], out, page);
    }
  }

  /** Where {@link #touch} leaves what it read, so the reads are not optimised away. */
  private long touched;

  // Reads the chunk header and the first value word of each short row range of a page without
  // levels, of one bit-packed block per chunk. Only reads: a malformed chunk is skipped here and
  // reported when it is decoded.
  private void touch(long[] rs, long[] re, int count, ByteBuffer page, int bits) {
    int limit = page.limit();
    if (limit < 16) {
      return;
    }
    int[] at = new int[count];
    for (int i = 0; i < count; i++) {
      at[i] = (int) Math.min(chunkOffset[chunkOfItem(rs[i])], limit - 16);
    }
    long acc = 0;
    for (int i = 0; i < count; i++) {
      acc += page.getLong(at[i]);
    }
    int sizeBytes = largeChunks ? 4 : 2;
    int values = (int) pad8(2 + sizeBytes); // one value buffer: it starts here in the chunk
    int wordBytes = bits / 8;
    for (int i = 0; i < count; i++) {
      int c = chunkOfItem(rs[i]);
      long item = rs[i] - itemStart[c];
      if (re[i] - rs[i] > 4 || item >= FastLanes.BLOCK) {
        continue;
      }
      int widthAt = at[i] + values;
      if (widthAt + wordBytes > limit) {
        continue;
      }
      long w = PageDecoder.unsigned(page, widthAt, wordBytes);
      if (w <= 0 || w > bits) {
        continue;
      }
      long p = (long) widthAt + wordBytes + FastLanes.byteOfOne(bits, (int) w, (int) item);
      if (p + 8 <= limit) {
        acc += page.getLong((int) p);
      }
    }
    touched += acc;
  }

  // Without lists a row is a value: find the chunks by value counts.
  // Chunks wholly inside the rows are decoded straight into the output (no copy); the others into
  // a chunk of their own, of which the last is kept for the next request.
  private void readFlat(long a, long b, LeafEntries out, ByteBuffer page) throws IOException {
    int c0 = chunkOfItem(a);
    int c1 = chunkOfItem(b - 1);
    int first = c0;
    InlineBitpackingDecompressor blocks = blockwise(out);
    if (cachedIndex == c0) {
      appendPart(cached, c0, a, b, out);
      first = c0 + 1;
    } else if (blocks != null && c0 == c1) {
      int from = (int) (a - itemStart[c0]);
      int to = (int) (b - itemStart[c0]);
      if (blocks.appendCached(c0, from, to, (FixedValues) out.values)) {
        out.addLevels(null, null, from, to);
        return;
      }
    }
    if (first > c1) {
      return;
    }
    long start = chunkOffset[first];
    // A few values of one chunk (a take) are read where they lie when the file is mapped; other
    // reads decode whole chunks from the thread's reused read buffer (everything decoded from it
    // is copied out before the next read).
    boolean fewOfOneChunk = blocks != null && first == c1 && (a > itemStart[c1] || b < itemStart[c1 + 1]);
    ByteBuffer buf;
    if (fewOfOneChunk && page != null) {
      buf = page;
      start = 0;
    } else {
      buf = fewOfOneChunk ? viewBuffer(1, start, chunkOffset[c1 + 1] - start)
          : readReused(1, start, chunkOffset[c1 + 1] - start);
    }
    for (int c = first; c <= c1; c++) {
      int base = (int) (chunkOffset[c] - start);
      int len = (int) (chunkOffset[c + 1] - chunkOffset[c]);
      if (blocks != null && !(a <= itemStart[c] && itemStart[c + 1] <= b)) {
        // Part of a chunk (a take): unpack only the blocks of 1024 values holding the rows.
        int from = (int) (Math.max(a, itemStart[c]) - itemStart[c]);
        int to = (int) (Math.min(b, itemStart[c + 1]) - itemStart[c]);
        ByteBuffer[] buffers = buffers(c, buf, base, len);
        try {
          blocks.decodeRange(buffers[0], chunkItems[c], from, to, c, (FixedValues) out.values);
        } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
          throw new BadDataException("chunk " + c + " values: " + e.getMessage());
        }
        out.addLevels(null, null, from, to);
        continue;
      }
      if (a <= itemStart[c] && itemStart[c + 1] <= b && dictionary == null) {
        Chunk ch = decode(c, buf, base, len, out.values);
        out.addLevels(null, ch.codes, 0, chunkItems[c]);
        if (c == c1) {
          recycle(cached);
          cachedIndex = -1;
          cached = null;
        }
      } else {
        Chunk ch = decode(c, buf, base, len, null);
        appendPart(ch, c, a, b, out);
        if (c == c1) {
          if (cached != ch) {
            recycle(cached);
          }
          cachedIndex = c;
          cached = ch;
        } else {
          recycle(ch);
        }
      }
    }
  }

  // Keeps a flat chunk's values container for the next partial chunk, so a scan whose batches
  // split chunks does not build (and grow) a new one per batch.
  private void recycle(Chunk ch) {
    if (ch != null && ch.values != null && dictionary == null && repDecoder == null) {
      spare = ch.values;
      ch.values = null;
    }
  }

  // The values decoder when parts of chunks can be decoded block by block: bit-packed 32/64-bit
  // values with no levels and no dictionary.
  private InlineBitpackingDecompressor blockwise(LeafEntries out) {
    if (repDecoder == null && defDecoder == null && dictionary == null && numBuffers == 1
        && values instanceof InlineBitpackingDecompressor ib && ib.decodesRanges(out.values)) {
      return ib;
    }
    return null;
  }

  // The value buffers of chunk c (of a page without levels), checked as decode() checks them.
  private ByteBuffer[] buffers(int c, ByteBuffer buf, int base, int len) {
    int sizeBytes = largeChunks ? 4 : 2;
    int headerLen = 2 + sizeBytes * numBuffers;
    if (headerLen > len) {
      throw new BadDataException("chunk " + c + " is " + len + " bytes, too small for its " + headerLen + "-byte header");
    }
    int p = base + 2;
    long rel = pad8(headerLen);
    ByteBuffer[] buffers = new ByteBuffer[numBuffers];
    for (int i = 0; i < numBuffers; i++) {
      long size = largeChunks ? buf.getInt(p) & 0xFFFFFFFFL : buf.getShort(p) & 0xFFFF;
      p += sizeBytes;
      if (rel + size > len) {
        throw new BadDataException("chunk " + c + " declares more bytes of levels and buffers than its " + len);
      }
      buffers[i] = buf.slice(base + (int) rel, (int) size).order(ByteOrder.LITTLE_ENDIAN);
      rel = pad8(rel + size);
    }
    if (rel > len) {
      throw new BadDataException("chunk " + c + " declares " + rel + " bytes of levels and buffers but is " + len
          + " bytes");
    }
    return buffers;
  }

  private void appendPart(Chunk ch, int c, long a, long b, LeafEntries out) {
    int from = (int) (Math.max(a, itemStart[c]) - itemStart[c]);
    int to = (int) (Math.min(b, itemStart[c + 1]) - itemStart[c]);
    out.addLevels(null, ch.codes, from, to);
    out.values.appendRange(ch.values, from, to);
  }

  private int chunkOfItem(long item) {
    if (chunkShift >= 0) {
      return (int) Math.min(item >>> chunkShift, numChunks - 1);
    }
    int lo = 0;
    int hi = numChunks - 1;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (itemStart[mid] <= item) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo;
  }

  // The chunk in which a row starts.
  private int chunkOfRow(long row) {
    int lo = 0;
    int hi = numChunks - 1;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (firstRow[mid] <= row) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    while (lo > 0 && starts[lo] == 0) {
      lo--;
    }
    if (row < firstRow[lo] || row >= firstRow[lo] + starts[lo]) {
      throw corrupt("repetition index has no chunk where row " + row + " starts");
    }
    return lo;
  }

  // With lists: rows [a, b) start in chunk x and end in chunk z; walk their levels.
  private void readRepeated(long a, long b, LeafEntries out) throws IOException {
    int x = chunkOfRow(a);
    int z = lastChunkOfRows(b);
    Chunk[] chunks = chunks(x, z);
    long toSkip = a - firstRow[x];
    long toTake = b - a;
    long skipped = 0;
    long taken = 0;
    boolean taking = false;
    boolean done = false;
    for (int c = x; c <= z && !done; c++) {
      Chunk ch = chunks[c - x];
      int li = 0;
      int vi = 0;
      if (c == x && preamble[x]) {
        // The chunk begins with the end of an earlier row.
        while (li < ch.numLevels && ch.rep[li] != maxRep) {
          vi += visible(ch, li) ? 1 : 0;
          li++;
        }
        if (li == ch.numLevels) {
          throw corrupt("chunk " + c + " should start a row but has none");
        }
      }
      int runStart = taking ? li : -1;
      int runValue = vi;
      for (; li < ch.numLevels; li++) {
        if (ch.rep[li] == maxRep) {
          boolean nowTaking;
          if (skipped < toSkip) {
            skipped++;
            nowTaking = false;
          } else if (taken < toTake) {
            taken++;
            nowTaking = true;
          } else {
            done = true;
            break;
          }
          if (nowTaking && !taking) {
            runStart = li;
            runValue = vi;
          } else if (!nowTaking && taking) {
            emit(ch, runStart, li, runValue, vi, out);
            runStart = -1;
          }
          taking = nowTaking;
        } else if (c == x && li == 0 && !preamble[x]) {
          throw corrupt("chunk " + c + " has no preamble but does not start a row");
        }
        if (visible(ch, li)) {
          vi++;
        }
      }
      if (taking) {
        emit(ch, runStart, li, runValue, vi, out);
      }
    }
    if (taken != toTake) {
      throw corrupt("levels of rows " + a + ".." + b + " do not match the repetition index (found " + taken + " rows)");
    }
  }

  private boolean visible(Chunk ch, int level) {
    return ch.codes == null || depthOfCode[ch.codes[level]] == 0;
  }

  private static void emit(Chunk ch, int from, int to, int v0, int v1, LeafEntries out) {
    out.addLevels(ch.rep, ch.codes, from, to);
    out.values.appendRange(ch.values, v0, v1);
  }

  // Decodes chunks [c0, c1], reading those not cached in one request.
  private Chunk[] chunks(int c0, int c1) throws IOException {
    Chunk[] out = new Chunk[c1 - c0 + 1];
    int first = c0;
    if (cachedIndex == c0) {
      out[0] = cached;
      first = c0 + 1;
    }
    if (first <= c1) {
      long start = chunkOffset[first];
      long end = chunkOffset[c1 + 1];
      ByteBuffer buf = readReused(1, start, end - start);
      for (int c = first; c <= c1; c++) {
        out[c - c0] = decode(c, buf, (int) (chunkOffset[c] - start), (int) (chunkOffset[c + 1] - chunkOffset[c]), null);
      }
    }
    cachedIndex = c1;
    cached = out[out.length - 1];
    return out;
  }

  // Decodes chunk c; its values go to {@code target} when given, else to a container of its own.
  private Chunk decode(int c, ByteBuffer buf, int base, int len, LeafValues target) {
    int sizeBytes = largeChunks ? 4 : 2;
    int headerLen = 2 * (1 + (repDecoder != null ? 1 : 0) + (defDecoder != null ? 1 : 0)) + sizeBytes * numBuffers;
    if (headerLen > len) {
      throw new BadDataException("chunk " + c + " is " + len + " bytes, too small for its " + headerLen + "-byte header");
    }
    int p = base;
    int numLevels = buf.getShort(p) & 0xFFFF;
    p += 2;
    int repSize = 0;
    int defSize = 0;
    if (repDecoder != null) {
      repSize = buf.getShort(p) & 0xFFFF;
      p += 2;
    }
    if (defDecoder != null) {
      defSize = buf.getShort(p) & 0xFFFF;
      p += 2;
    }
    long[] sizes = new long[numBuffers];
    for (int i = 0; i < numBuffers; i++) {
      sizes[i] = largeChunks ? buf.getInt(p) & 0xFFFFFFFFL : buf.getShort(p) & 0xFFFF;
      p += sizeBytes;
    }
    long rel = pad8(p - base);
    int repOff = base + (int) rel;
    rel = pad8(rel + repSize);
    int defOff = base + (int) rel;
    rel = pad8(rel + defSize);
    ByteBuffer[] buffers = new ByteBuffer[numBuffers];
    for (int i = 0; i < numBuffers; i++) {
      if (rel + sizes[i] > len) {
        throw new BadDataException("chunk " + c + " declares more bytes of levels and buffers than its " + len);
      }
      buffers[i] = buf.slice(base + (int) rel, (int) sizes[i]).order(ByteOrder.LITTLE_ENDIAN);
      rel = pad8(rel + sizes[i]);
    }
    if (rel > len) {
      throw new BadDataException("chunk " + c + " declares " + rel + " bytes of levels and buffers but is " + len
          + " bytes");
    }
    Chunk ch = new Chunk();
    int items = chunkItems[c];
    if (repDecoder != null || defDecoder != null) {
      ch.numLevels = numLevels;
      if (repDecoder != null) {
        ch.rep = repDecoder.decode(buf, repOff, repSize, numLevels);
        for (int i = 0; i < numLevels; i++) {
          if ((ch.rep[i] & 0xFFFF) > maxRep) {
            throw new BadDataException("chunk " + c + " has repetition level " + (ch.rep[i] & 0xFFFF)
                + " above the maximum " + maxRep);
          }
        }
      }
      if (defDecoder != null) {
        short[] def = defDecoder.decode(buf, defOff, defSize, numLevels);
        ch.codes = new short[numLevels];
        boolean any = false;
        for (int i = 0; i < numLevels; i++) {
          int code = layers.codeOf(def[i] & 0xFFFF);
          if (code < 0) {
            throw new BadDataException("chunk " + c + " has definition level " + (def[i] & 0xFFFF)
                + " above the maximum " + layers.maxDef);
          }
          ch.codes[i] = (short) code;
          any |= code != 0;
        }
        if (!any) {
          ch.codes = null;
        }
      }
      int visible = 0;
      for (int i = 0; i < numLevels; i++) {
        visible += visible(ch, i) ? 1 : 0;
      }
      if (visible != items) {
        throw new BadDataException("chunk " + c + " has " + visible + " levels with values but " + items + " values");
      }
    } else {
      ch.numLevels = items;
    }
    try {
      decodeValues(c, buffers, items, ch, target);
    } catch (IllegalArgumentException | IndexOutOfBoundsException | BufferUnderflowException e) {
      throw new BadDataException("chunk " + c + " values: " + e.getMessage());
    }
    return ch;
  }

  private void decodeValues(int c, ByteBuffer[] buffers, int items, Chunk ch, LeafValues target) {
    if (target != null) {
      int before = target.count();
      values.decode(buffers, items, target);
      if (target.count() - before != items) {
        throw new BadDataException("chunk " + c + " decoded " + (target.count() - before) + " values, expected " + items);
      }
      return;
    }
    if (dictionary == null) {
      if (spare != null) {
        ch.values = spare;
        spare = null;
        ch.values.reset();
      } else {
        ch.values = LeafValues.create(path.type);
      }
      if (ch.values instanceof FixedValues f) {
        f.reserve(items); // one allocation, not a doubling series
      }
      values.decode(buffers, items, ch.values);
    } else {
      FixedValues indices = new FixedValues(indexType.bitsPerItem);
      values.decode(buffers, items, indices);
      if (indices.count() != items) {
        throw new BadDataException("chunk " + c + " decoded " + indices.count() + " indices, expected " + items);
      }
      ch.values = lookUp(c, indices);
    }
    if (ch.values.count() != items) {
      throw new BadDataException("chunk " + c + " decoded " + ch.values.count() + " values, expected " + items);
    }
  }

  // The dictionary's items for a chunk's indices, gathered in one pass.
  private LeafValues lookUp(int c, FixedValues indices) {
    int n = indices.count();
    int[] idx = new int[n];
    ByteBuffer b = ByteBuffer.wrap(indices.array()).order(ByteOrder.LITTLE_ENDIAN);
    int w = indexType.bitsPerItem / 8;
    long limit = dictionary.count();
    for (int i = 0; i < n; i++) {
      long x = unsigned(b, i * w, w);
      if (x < 0 || x >= limit) {
        throw new BadDataException("chunk " + c + " has dictionary index " + Long.toUnsignedString(x) + " but the "
            + "dictionary has " + limit + " items");
      }
      idx[i] = (int) x;
    }
    LeafValues out = LeafValues.create(path.type);
    if (dictionary instanceof VarValues) {
      VarValues d = (VarValues) dictionary;
      byte[] src = d.data();
      long total = 0;
      for (int i = 0; i < n; i++) {
        total += d.length(idx[i]);
      }
      if (total > Integer.MAX_VALUE - 64) {
        throw new BadDataException("chunk " + c + " expands to more than 2 GiB of dictionary values");
      }
      byte[] gathered = new byte[(int) total];
      long[] ends = new long[n];
      int pos = 0;
      for (int i = 0; i < n; i++) {
        int len = d.length(idx[i]);
        System.arraycopy(src, (int) d.start(idx[i]), gathered, pos, len);
        pos += len;
        ends[i] = pos;
      }
      ((VarValues) out).appendRun(ByteBuffer.wrap(gathered), 0, ends, n);
    } else if (dictionary instanceof FixedValues && ((FixedValues) dictionary).bits % 8 == 0) {
      FixedValues d = (FixedValues) dictionary;
      int vw = d.bits / 8;
      byte[] src = d.array();
      byte[] gathered = new byte[Math.multiplyExact(n, vw)];
      for (int i = 0; i < n; i++) {
        System.arraycopy(src, idx[i] * vw, gathered, i * vw, vw);
      }
      ((FixedValues) out).appendFrom(ByteBuffer.wrap(gathered), 0, n);
    } else {
      for (int i = 0; i < n; i++) {
        out.appendRange(dictionary, idx[i], idx[i] + 1);
      }
    }
    return out;
  }

  private static long pad8(long n) {
    return (n + 7) & ~7L;
  }
}
