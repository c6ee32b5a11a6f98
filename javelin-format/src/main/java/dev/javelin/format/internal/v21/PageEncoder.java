package dev.javelin.format.internal.v21;

import dev.javelin.format.LanceFileVersion;
import dev.javelin.format.exceptions.UnsupportedFormatException;
import dev.javelin.format.internal.compression.general.GeneralCodec;
import dev.javelin.format.proto.Encodings21;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Picks the layout of a page the way Lance does and writes it: all-null when no item is valid,
 * full-zip when values are 256 bytes or wider, mini-block otherwise (falling back to full-zip
 * when the levels of a few values cannot fit a chunk). One exception keeps files readable by
 * lance-core 7.0.0: see {@link #nullItemBetweenLists}.
 *
 * <p>With compression on, values and levels are compressed as lance-core 7.0.0 compresses them by
 * default. Mini-block: fixed-width values get RLE, inline bit-packing or nothing
 * ({@link FixedCompression}); variable-width values a dictionary ({@link StringDictionary}), else
 * FSST ({@link FsstCompression}), else nothing; fixed-size lists and booleans nothing; levels are
 * bit-packed ({@link LevelEncoder}). Full-zip: variable-width values over 32 KiB are compressed
 * one by one with zstd ({@link ZstdPerValueEncoder}), else FSST, else nothing; fixed-width values
 * nothing. All-null pages keep plain levels, as Lance's 2.1 pages do.
 *
 * <p>Format 2.2 pages are the same but for what lance-core 7.0.0 requires of them and chooses for
 * them: mini-block pages say {@code has_large_chunk} (32-bit chunk sizes), levels with fewer runs
 * than half their count are run-length encoded ({@link MiniBlockWriter}, {@link LevelEncoder}),
 * string dictionaries are LZ4-compressed, and a page outside lists whose valid values are equal
 * is a constant page ({@link ConstantWriter}), and all-null pages compress their levels
 * ({@link AllNullWriter}). Not written: lance-core's 2.2 dictionaries of fixed-width values (such
 * pages keep their 2.1 encodings).
 */
final class PageEncoder {
  /** Values at least this wide go full-zip (Lance's MINIBLOCK_MAX_BYTE_LENGTH_PER_VALUE). */
  static final int WIDE_VALUE_BYTES = 256;

  private PageEncoder() {}

  static EncodedPage encode(LeafEntries page) {
    return encode(page, false, LanceFileVersion.V2_1);
  }

  static EncodedPage encode(LeafEntries page, boolean compress) {
    return encode(page, compress, LanceFileVersion.V2_1);
  }

  /** Encodes a page for a file of the given version (2.1 or 2.2). */
  static EncodedPage encode(LeafEntries page, boolean compress, LanceFileVersion version) {
    LeafPath path = page.path;
    int layersCount = path.numLayers();
    boolean[] nullSeen = new boolean[layersCount];
    boolean[] emptySeen = new boolean[layersCount];
    boolean anyValid = !page.hasCodes() && page.size() > 0;
    if (page.hasCodes()) {
      for (int i = 0; i < page.size(); i++) {
        int c = page.code(i);
        if (c == 0) {
          anyValid = true;
        } else if (Codes.isNull(c)) {
          nullSeen[Codes.layer(c)] = true;
        } else {
          emptySeen[Codes.layer(c)] = true;
        }
      }
    }
    RepDefLayers layers = RepDefLayers.forPage(path, nullSeen, emptySeen);
    short[] def = levels(page, layers);
    if (!anyValid) {
      return AllNullWriter.write(page, layers, def, compress && version == LanceFileVersion.V2_2);
    }
    if (compress && version == LanceFileVersion.V2_2) {
      EncodedPage constant = ConstantWriter.tryWrite(page, layers, def);
      if (constant != null) {
        return constant;
      }
    }
    StringDictionary dict = null;
    if (compress && page.path.type.kind == LeafType.Kind.VARIABLE) {
      // Like Lance, dictionary-encode before choosing the layout: wide values with few distinct
      // values become narrow indices in a mini-block page.
      dict = StringDictionary.tryEncode((VarValues) page.values);
    }
    boolean fullZip = isWide(page) && !nullItemBetweenLists(layers);
    if (dict == null && fullZip) {
      return fullZip(page, layers, compress ? compressedPerValue(page) : perValue(page));
    }
    if (compress) {
      try {
        return compressedMiniBlock(page, layers, def, dict, version);
      } catch (MiniBlockWriter.ChunkTooLargeException e) {
        // The codec's chunks break a limit with these levels: let the writer cut its own chunks.
      }
      if (fullZip) {
        return fullZip(page, layers, compressedPerValue(page));
      }
    }
    try {
      return MiniBlockWriter.write(page, layers, def, miniBlock(page), compress, version);
    } catch (MiniBlockWriter.ChunkTooLargeException e) {
      return fullZip(page, layers, compress ? compressedPerValue(page) : perValue(page));
    }
  }

  private static EncodedPage compressedMiniBlock(LeafEntries page, RepDefLayers layers, short[] def,
      StringDictionary dict, LanceFileVersion version) throws MiniBlockWriter.ChunkTooLargeException {
    LeafType t = page.path.type;
    if (t.kind == LeafType.Kind.FIXED) {
      FixedValues v = (FixedValues) page.values;
      ChunkedValues chunks = v.bits == 1 ? null : FixedCompression.choose(v.array(), v.bits, v.count());
      if (chunks != null) {
        return MiniBlockWriter.write(page, layers, def, chunks, null, true, version);
      }
    } else if (t.kind == LeafType.Kind.VARIABLE) {
      VarValues v = (VarValues) page.values;
      if (dict != null) {
        MiniBlockWriter.Dictionary d = version == LanceFileVersion.V2_2
            ? new MiniBlockWriter.Dictionary(CompressionProtos.lz4(dict.encoding), dict.numItems,
                ByteBuffer.wrap(GeneralCodec.lz4().compress(dict.block, 0, dict.block.length)))
            : new MiniBlockWriter.Dictionary(dict.encoding, dict.numItems, ByteBuffer.wrap(dict.block));
        ChunkedValues indices = FixedCompression.choose(dict.indices, dict.indices.length);
        if (indices != null) {
          return MiniBlockWriter.write(page, layers, def, indices, d, true, version);
        }
        return MiniBlockWriter.write(page, layers, def, new FlatEncoder(asFixed(dict.indices)), d, true, version);
      }
      if (FsstCompression.applies(v, v.maxLength(0, v.count()))) {
        VariableEncoder fsst = FsstCompression.compress(v);
        if (fsst != null) {
          return MiniBlockWriter.write(page, layers, def, fsst, true, version);
        }
      }
    }
    return MiniBlockWriter.write(page, layers, def, miniBlock(page), true, version);
  }

  private static FixedValues asFixed(int[] ints) {
    ByteBuffer b = ByteBuffer.allocate(4 * ints.length).order(ByteOrder.LITTLE_ENDIAN);
    b.asIntBuffer().put(ints);
    FixedValues f = new FixedValues(32);
    f.appendFrom(b, 0, ints.length);
    return f;
  }

  static PerValueEncoder compressedPerValue(LeafEntries page) {
    if (page.path.type.kind != LeafType.Kind.VARIABLE) {
      return perValue(page);
    }
    VarValues v = (VarValues) page.values;
    int maxLength = v.maxLength(0, v.count());
    if (maxLength > ZstdPerValueEncoder.MIN_MAX_LENGTH) {
      return new ZstdPerValueEncoder(v);
    }
    if (FsstCompression.applies(v, maxLength)) {
      VariableEncoder fsst = FsstCompression.compress(v);
      if (fsst != null) {
        return fsst;
      }
    }
    return perValue(page);
  }

  /**
   * Writes a full-zip page. Fixed-width values under a list get their item layers declared from
   * the schema (see {@link RepDefLayers#withNullableItemsInsideLists}) so that every page of the
   * column agrees, which lance-core 7.0.0's full-zip reader needs.
   */
  private static EncodedPage fullZip(LeafEntries page, RepDefLayers layers, PerValueEncoder values) {
    RepDefLayers declared = layers;
    if (page.path.maxRep > 0 && !values.isVariable()) {
      declared = layers.withNullableItemsInsideLists(page.path);
    }
    return FullZipWriter.write(page, declared, levels(page, declared), values);
  }

  private static short[] levels(LeafEntries page, RepDefLayers layers) {
    if (layers.maxDef == 0) {
      return null;
    }
    short[] def = new short[page.size()];
    for (int i = 0; i < def.length; i++) {
      def[i] = (short) layers.levelOf(page.code(i));
    }
    return def;
  }

  /**
   * Whether a layer above the innermost list has null items (a null struct between two lists).
   * lance-core 7.0.0's full-zip reader counts such entries as values while its writer does not,
   * and panics; its mini-block reader agrees with the writer, so such pages go mini-block.
   */
  private static boolean nullItemBetweenLists(RepDefLayers layers) {
    boolean seenList = false;
    for (Encodings21.RepDefLayer m : layers.meanings) {
      if (RepDefLayers.isList(m)) {
        seenList = true;
      } else if (seenList && m == Encodings21.RepDefLayer.REPDEF_NULLABLE_ITEM) {
        return true;
      }
    }
    return false;
  }

  private static boolean isWide(LeafEntries page) {
    LeafType t = page.path.type;
    if (t.kind == LeafType.Kind.VARIABLE) {
      VarValues v = (VarValues) page.values;
      return v.maxLength(0, v.count()) >= WIDE_VALUE_BYTES;
    }
    return t.maxFixedBytes() >= WIDE_VALUE_BYTES;
  }

  static MiniBlockValueEncoder miniBlock(LeafEntries page) {
    switch (page.path.type.kind) {
      case FIXED:
        return new FlatEncoder((FixedValues) page.values);
      case VARIABLE:
        return new VariableEncoder((VarValues) page.values);
      default:
        return new FslEncoder((FslValues) page.values);
    }
  }

  static PerValueEncoder perValue(LeafEntries page) {
    LeafType t = page.path.type;
    if (t.kind != LeafType.Kind.VARIABLE && t.bitsPerItem % 8 != 0) {
      // Lance reads no bit-packed values in full-zip pages.
      throw new UnsupportedFormatException(null, "Field " + page.path.name()
          + ": a page of booleans has more empty or null lists than a mini-block chunk can hold");
    }
    switch (t.kind) {
      case FIXED:
        return new FlatEncoder((FixedValues) page.values);
      case VARIABLE:
        return new VariableEncoder((VarValues) page.values);
      default:
        return new FslEncoder((FslValues) page.values);
    }
  }
}
