package dev.javelin.format.v21;

import dev.javelin.format.UnsupportedFormatException;

/**
 * Picks the layout of a page the way Lance does and writes it: all-null when no item is valid,
 * full-zip when values are 256 bytes or wider, mini-block otherwise (falling back to full-zip
 * when the levels of a few values cannot fit a chunk). One exception keeps files readable by
 * lance-core 7.0.0: see {@link #nullItemBetweenLists}.
 */
final class PageEncoder {
  /** Values at least this wide go full-zip (Lance's MINIBLOCK_MAX_BYTE_LENGTH_PER_VALUE). */
  static final int WIDE_VALUE_BYTES = 256;

  private PageEncoder() {}

  static EncodedPage encode(LeafEntries page) {
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
    short[] def = null;
    if (layers.maxDef > 0) {
      def = new short[page.size()];
      for (int i = 0; i < def.length; i++) {
        def[i] = (short) layers.levelOf(page.code(i));
      }
    }
    if (!anyValid) {
      return AllNullWriter.write(page, layers, def);
    }
    if (isWide(page) && !nullItemBetweenLists(layers)) {
      return FullZipWriter.write(page, layers, def, perValue(page));
    }
    try {
      return MiniBlockWriter.write(page, layers, def, miniBlock(page));
    } catch (MiniBlockWriter.ChunkTooLargeException e) {
      return FullZipWriter.write(page, layers, def, perValue(page));
    }
  }

  /**
   * Whether a layer above the innermost list has null items (a null struct between two lists).
   * lance-core 7.0.0's full-zip reader counts such entries as values while its writer does not,
   * and panics; its mini-block reader agrees with the writer, so such pages go mini-block.
   */
  private static boolean nullItemBetweenLists(RepDefLayers layers) {
    boolean seenList = false;
    for (dev.javelin.format.proto.Encodings21.RepDefLayer m : layers.meanings) {
      if (RepDefLayers.isList(m)) {
        seenList = true;
      } else if (seenList && m == dev.javelin.format.proto.Encodings21.RepDefLayer.REPDEF_NULLABLE_ITEM) {
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
