package dev.javelin.format.internal.v20;

import dev.javelin.format.exceptions.LanceFormatException;
import dev.javelin.format.proto.Encodings20.ArrayEncoding;
import dev.javelin.format.proto.Encodings20.Binary;
import dev.javelin.format.proto.Encodings20.Dictionary;
import dev.javelin.format.proto.Encodings20.Flat;
import dev.javelin.format.proto.Encodings20.Nullable;
import dev.javelin.format.schema.LanceField;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;

/**
 * Decodes a column of strings or binary values. Pages are {@code Binary{indices: u64 end offsets
 * (+ null_adjustment for a null), bytes}} or {@code Dictionary{indices (0 = null, i + 1 = item i),
 * items: Binary, num_dictionary_items}}, possibly inside a {@code Nullable}.
 */
final class BinaryDecoder extends NodeDecoder {
  private final ColumnPages pages;
  private final boolean large;
  private final Page[] codecs;
  // The dictionary of the dictionary page read last (a scan reads it once per page).
  private int dictionaryPage = -1;
  private Dict dictionary;

  BinaryDecoder(LanceField field, ColumnPages pages, long expectedValues) {
    this.pages = pages;
    this.large = Types20.isLargeBinary(field.toArrow().getType());
    checkTotal(pages, expectedValues);
    this.codecs = new Page[pages.numPages()];
    for (int p = 0; p < codecs.length; p++) {
      codecs[p] = parsePage(p, pages.encoding(p), pages.length(p));
    }
  }

  /** How a page is stored. Exactly one of {@code allNull}, {@code binary}, {@code dictionary} applies. */
  private static final class Page {
    int validityBuffer = -1;
    boolean allNull;
    BinaryCodec binary;
    DictionaryCodec dictionary;
  }

  private static final class BinaryCodec {
    int indices;
    int bytes;
    long nullAdjustment;
    // null when the bytes are stored plain.
    String compression;
  }

  private static final class DictionaryCodec {
    int indices;
    int indexBits;
    int numItems;
    BinaryCodec items;
  }

  private Page parsePage(int page, ArrayEncoding encoding, long values) {
    Page out = new Page();
    ArrayEncoding inner = encoding;
    if (encoding.getArrayEncodingCase() == ArrayEncoding.ArrayEncodingCase.NULLABLE) {
      Nullable n = encoding.getNullable();
      switch (n.getNullabilityCase()) {
        case ALL_NULLS:
          out.allNull = true;
          return out;
        case NO_NULLS:
          inner = n.getNoNulls().getValues();
          break;
        case SOME_NULLS:
          out.validityBuffer = flat(page, n.getSomeNulls().getValidity(), 1, values, "validity");
          inner = n.getSomeNulls().getValues();
          break;
        default:
          throw pages.corrupt(page, "Nullable encoding without nullability");
      }
    }
    switch (inner.getArrayEncodingCase()) {
      case BINARY:
        out.binary = parseBinary(page, inner.getBinary(), values, "");
        return out;
      case DICTIONARY:
        out.dictionary = parseDictionary(page, inner.getDictionary(), values);
        return out;
      default:
        throw pages.unexpected(page, "strings", inner, "Binary or Dictionary");
    }
  }

  // A Flat buffer, possibly wrapped in Nullable{no_nulls}.
  private int flat(int page, ArrayEncoding encoding, int bits, long values, String what) {
    ArrayEncoding e = encoding;
    if (e.getArrayEncodingCase() == ArrayEncoding.ArrayEncodingCase.NULLABLE
        && e.getNullable().getNullabilityCase() == Nullable.NullabilityCase.NO_NULLS) {
      e = e.getNullable().getNoNulls().getValues();
    }
    if (e.getArrayEncodingCase() != ArrayEncoding.ArrayEncodingCase.FLAT) {
      throw pages.unexpected(page, what, e, "Flat");
    }
    return pages.flatBuffer(page, e.getFlat(), bits, values, what);
  }

  private BinaryCodec parseBinary(int page, Binary binary, long values, String prefix) {
    BinaryCodec c = new BinaryCodec();
    c.indices = flat(page, binary.getIndices(), 64, values, prefix + "string offsets");
    ArrayEncoding bytes = binary.getBytes();
    if (bytes.getArrayEncodingCase() != ArrayEncoding.ArrayEncodingCase.FLAT) {
      throw pages.unexpected(page, prefix + "string bytes", bytes, "Flat");
    }
    Flat flat = bytes.getFlat();
    c.compression = Compression.scheme(flat);
    if (c.compression != null && !Compression.supported(c.compression)) {
      throw pages.unsupported(page, prefix + "string bytes are compressed with '" + c.compression + "'");
    }
    c.bytes = pages.flatBufferOf(page, flat, 8, 0, prefix + "string bytes");
    c.nullAdjustment = binary.getNullAdjustment();
    if (values > 0 && c.nullAdjustment == 0) {
      throw pages.corrupt(page, prefix + "string null_adjustment is 0");
    }
    if (c.compression != null && values > 0 && Long.compareUnsigned(c.nullAdjustment, Integer.MAX_VALUE - 64) > 0) {
      throw pages.corrupt(page, prefix + "string null_adjustment " + Long.toUnsignedString(c.nullAdjustment)
          + " is too large for compressed bytes");
    }
    return c;
  }

  private DictionaryCodec parseDictionary(int page, Dictionary dictionary, long values) {
    DictionaryCodec c = new DictionaryCodec();
    ArrayEncoding indices = dictionary.getIndices();
    ArrayEncoding flat = indices;
    if (flat.getArrayEncodingCase() == ArrayEncoding.ArrayEncodingCase.NULLABLE
        && flat.getNullable().getNullabilityCase() == Nullable.NullabilityCase.NO_NULLS) {
      flat = flat.getNullable().getNoNulls().getValues();
    }
    if (flat.getArrayEncodingCase() != ArrayEncoding.ArrayEncodingCase.FLAT) {
      throw pages.unexpected(page, "dictionary indices", flat, "Flat");
    }
    long bits = flat.getFlat().getBitsPerValue();
    if (bits != 8 && bits != 16 && bits != 32 && bits != 64) {
      throw pages.corrupt(page, "dictionary indices of " + bits + " bits");
    }
    c.indexBits = (int) bits;
    c.indices = pages.flatBuffer(page, flat.getFlat(), bits, values, "dictionary indices");
    if (dictionary.getNumDictionaryItems() < 0) {
      throw pages.corrupt(page, "dictionary of " + Integer.toUnsignedString(dictionary.getNumDictionaryItems())
          + " items");
    }
    c.numItems = dictionary.getNumDictionaryItems();
    if (dictionary.getItems().getArrayEncodingCase() != ArrayEncoding.ArrayEncodingCase.BINARY) {
      throw pages.unexpected(page, "dictionary items", dictionary.getItems(), "Binary");
    }
    c.items = parseBinary(page, dictionary.getItems().getBinary(), c.numItems, "dictionary ");
    return c;
  }

  @Override
  void read(Ranges rows, FieldVector target, BufferAllocator allocator) throws IOException {
    int n = valueCount(pages, rows.total);
    int offsetWidth = large ? 8 : 4;
    ArrowBuf validity = zeroed(allocator, Bitmaps.bytesFor(n));
    ArrowBuf offsets = null;
    ArrowBuf data = null;
    try {
      offsets = zeroed(allocator, (long) (n + 1) * offsetWidth);
      Output out = new Output(validity, offsets, offsetWidth);
      Pieces pieces = pages.pieces(rows);
      for (int i = 0; i < pieces.size; ) {
        int j = pieces.groupEnd(i);
        int page = pieces.page[i];
        Page codec = codecs[page];
        // Compressed bytes are decoded whole; otherwise a few rows read only their bytes (and, for
        // a dictionary page, the dictionary).
        boolean whole = codec.binary != null && codec.binary.compression != null;
        PageBytes bytes = whole ? pages.wholePage(page) : pages.bytes(pieces, i, j);
        for (int k = i; k < j; k++) {
          long from = pieces.from[k];
          long to = pieces.to[k];
          long dest = pieces.dest[k];
          if (codec.allNull) {
            out.nulls(dest, to - from);
            continue;
          }
          ByteBuffer outer = null;
          if (codec.validityBuffer >= 0) {
            long first = from >>> 3;
            outer = bytes.get(codec.validityBuffer, first, Bitmaps.bytesFor(to) - first);
          }
          if (codec.binary != null) {
            readBinary(page, codec.binary, bytes, from, to, outer, dest, out);
          } else {
            readDictionary(page, codec.dictionary, bytes, from, to, outer, dest, out);
          }
        }
        i = j;
      }
      if (!large && out.total > Integer.MAX_VALUE) {
        throw new LanceFormatException(pages.source.location(), "Column " + pages.column + ": " + out.total
            + " bytes of strings do not fit one Arrow vector; read fewer rows");
      }
      data = allocator.buffer(Math.max(1, out.total));
      long at = 0;
      for (ByteBuffer chunk : out.chunks) {
        int len = chunk.remaining();
        data.setBytes(at, chunk);
        at += len;
      }
      target.loadFieldBuffers(new ArrowFieldNode(n, nullCount(validity, n)), List.of(validity, offsets, data));
    } finally {
      validity.close();
      if (offsets != null) {
        offsets.close();
      }
      if (data != null) {
        data.close();
      }
    }
  }

  // Rows [from, to) of a Binary page: one read of their end offsets (and the one before), one of their bytes.
  private void readBinary(int page, BinaryCodec c, PageBytes bytes, long from, long to, ByteBuffer outer,
      long dest, Output out) throws IOException {
    long first = from == 0 ? 0 : from - 1;
    ByteBuffer idx = bytes.get(c.indices, first * 8, (to - first) * 8);
    ByteBuffer plain = c.compression == null ? null : decompressed(page, c, bytes, true);
    long bytesSize = plain == null ? pages.bufferSize(page, c.bytes) : plain.remaining();
    long start = from == 0 ? 0 : end(page, c, idx.getLong(0), bytesSize, from - 1);
    long prev = start;
    int base = from == 0 ? 0 : 8;
    for (long i = from; i < to; i++) {
      long v = idx.getLong(base + (int) (i - from) * 8);
      long e = end(page, c, v, bytesSize, i);
      if (e < prev) {
        throw pages.corrupt(page, "string offsets decrease at value " + i + " (" + prev + " then " + e + ")");
      }
      boolean valid = Long.compareUnsigned(v, c.nullAdjustment) < 0
          && (outer == null || Bitmaps.get(outer, (from & 7) + (i - from)));
      out.value(dest + (i - from), valid, e - prev);
      prev = e;
    }
    out.chunks.add(plain == null ? bytes.get(c.bytes, start, prev - start) : slice(plain, start, prev - start));
  }

  private static ByteBuffer slice(ByteBuffer b, long from, long length) {
    ByteBuffer d = b.duplicate();
    d.position((int) from);
    d.limit((int) (from + length));
    return d.slice();
  }

  // The uncompressed bytes of a page's Binary, which must come to null_adjustment - 1 bytes.
  private ByteBuffer decompressed(int page, BinaryCodec c, PageBytes bytes, boolean cache) throws IOException {
    Object cached = pages.cachedExtra(page);
    if (cache && cached instanceof ByteBuffer) {
      return (ByteBuffer) cached;
    }
    int expected = c.nullAdjustment == 0 ? 0 : (int) (c.nullAdjustment - 1);
    ByteBuffer compressed = bytes.get(c.bytes, 0, pages.bufferSize(page, c.bytes));
    ByteBuffer plain;
    try {
      plain = Compression.decompress(c.compression, compressed, expected);
    } catch (IllegalArgumentException e) {
      throw pages.corrupt(page, "string bytes: " + e.getMessage());
    }
    if (cache) {
      pages.cacheExtra(page, plain);
    }
    return plain;
  }

  // The end offset an index stands for, checked against the bytes buffer.
  private long end(int page, BinaryCodec c, long index, long bytesSize, long value) {
    long e = Long.compareUnsigned(index, c.nullAdjustment) >= 0 ? index - c.nullAdjustment : index;
    if (Long.compareUnsigned(e, bytesSize) > 0) {
      throw pages.corrupt(page, "string offset " + Long.toUnsignedString(e) + " of value " + value
          + " passes the end of the " + bytesSize + " string bytes");
    }
    return e;
  }

  private void readDictionary(int page, DictionaryCodec c, PageBytes bytes, long from, long to, ByteBuffer outer,
      long dest, Output out) throws IOException {
    Dict dict = dictionary(page, c, bytes);
    int width = c.indexBits / 8;
    ByteBuffer idx = bytes.get(c.indices, from * width, (to - from) * width);
    int count = (int) (to - from);
    int[] items = new int[count];
    long total = 0;
    for (int i = 0; i < count; i++) {
      long k;
      switch (width) {
        case 1:
          k = Byte.toUnsignedLong(idx.get(i));
          break;
        case 2:
          k = Short.toUnsignedLong(idx.getShort(i * 2));
          break;
        case 4:
          k = Integer.toUnsignedLong(idx.getInt(i * 4));
          break;
        default:
          k = idx.getLong(i * 8);
          break;
      }
      if (Long.compareUnsigned(k, c.numItems) > 0) {
        throw pages.corrupt(page, "dictionary index " + Long.toUnsignedString(k) + " of value " + (from + i)
            + " passes the " + c.numItems + " dictionary items");
      }
      int item = (int) k - 1;
      boolean valid = item >= 0 && dict.valid[item] && (outer == null || Bitmaps.get(outer, (from & 7) + i));
      items[i] = valid ? item : -1;
      long len = valid ? dict.ends[item] - dict.starts[item] : 0;
      total += len;
      out.value(dest + i, valid, len);
    }
    if (total > Integer.MAX_VALUE - 64) {
      throw new LanceFormatException(pages.source.location(), "Column " + pages.column + " page " + page
          + ": dictionary values expand to too many bytes; read fewer rows");
    }
    ByteBuffer chunk = ByteBuffer.allocate((int) total);
    for (int item : items) {
      if (item >= 0) {
        ByteBuffer d = dict.data.duplicate();
        d.position((int) dict.starts[item]);
        d.limit((int) dict.ends[item]);
        chunk.put(d);
      }
    }
    chunk.flip();
    out.chunks.add(chunk);
  }

  @Override
  void close() {
    pages.close();
    dictionaryPage = -1;
    dictionary = null;
  }

  /** A page's decoded dictionary. */
  private static final class Dict {
    long[] starts;
    long[] ends;
    boolean[] valid;
    ByteBuffer data;
  }

  private Dict dictionary(int page, DictionaryCodec c, PageBytes bytes) throws IOException {
    if (page == dictionaryPage) {
      return dictionary;
    }
    BinaryCodec items = c.items;
    int n = c.numItems;
    Dict d = new Dict();
    d.starts = new long[n];
    d.ends = new long[n];
    d.valid = new boolean[n];
    d.data = items.compression == null
        ? bytes.get(items.bytes, 0, pages.bufferSize(page, items.bytes))
        : decompressed(page, items, bytes, false);
    long bytesSize = d.data.remaining();
    ByteBuffer idx = bytes.get(items.indices, 0, (long) n * 8);
    long prev = 0;
    for (int i = 0; i < n; i++) {
      long v = idx.getLong(i * 8);
      long e = end(page, items, v, bytesSize, i);
      if (e < prev) {
        throw pages.corrupt(page, "dictionary item offsets decrease at item " + i);
      }
      d.starts[i] = prev;
      d.ends[i] = e;
      d.valid[i] = Long.compareUnsigned(v, items.nullAdjustment) < 0;
      prev = e;
    }
    dictionaryPage = page;
    dictionary = d;
    return d;
  }

  /** The output being built: validity and offsets as rows are decoded, the bytes as chunks. */
  private static final class Output {
    final ArrowBuf validity;
    final ArrowBuf offsets;
    final int offsetWidth;
    final List<ByteBuffer> chunks = new ArrayList<>();
    long total;

    Output(ArrowBuf validity, ArrowBuf offsets, int offsetWidth) {
      this.validity = validity;
      this.offsets = offsets;
      this.offsetWidth = offsetWidth;
    }

    void value(long row, boolean valid, long length) {
      if (valid) {
        Bitmaps.set(validity, row);
      }
      total += length;
      if (offsetWidth == 4) {
        offsets.setInt((row + 1) * 4, (int) total);
      } else {
        offsets.setLong((row + 1) * 8, total);
      }
    }

    void nulls(long row, long count) {
      for (long i = 0; i < count; i++) {
        value(row + i, false, 0);
      }
    }
  }
}
