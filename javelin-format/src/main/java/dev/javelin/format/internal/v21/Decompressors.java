package dev.javelin.format.internal.v21;

import dev.javelin.format.exceptions.BadDataException;
import dev.javelin.format.exceptions.UnsupportedEncodingException;
import dev.javelin.format.internal.compression.fsst.FsstDecoder;
import dev.javelin.format.internal.compression.fsst.FsstSymbolTable;
import dev.javelin.format.proto.Encodings21.CompressiveEncoding;
import dev.javelin.format.proto.Encodings21.CompressiveEncoding.CompressionCase;
import dev.javelin.format.proto.Encodings21.FixedSizeList;
import dev.javelin.format.proto.Encodings21.Flat;
import dev.javelin.format.proto.Encodings21.VariablePackedStruct;
import java.util.ArrayList;
import java.util.List;

/**
 * The registry of compressive encodings Javelin reads: picks the decoder for an encoding
 * description and checks that what it produces fits the leaf's type. Lance applies encodings in
 * four places, each with its own set:
 *
 * <ul>
 *   <li>mini-block chunk values: Flat, InlineBitpacking, OutOfLineBitpacking, Rle,
 *       ByteStreamSplit, Constant, Variable, Fsst (over Variable), FixedSizeList, PackedStruct and
 *       General around any of them;</li>
 *   <li>blocks (chunk levels, dictionaries, constant-page levels): Flat, InlineBitpacking,
 *       OutOfLineBitpacking, Rle, Constant, Variable and General around them;</li>
 *   <li>full-zip fixed-width values: Flat (booleans widened to one byte each) and FixedSizeList;</li>
 *   <li>full-zip variable-width values: Variable, Fsst, General and VariablePackedStruct.</li>
 * </ul>
 *
 * An encoding with no decoder here throws {@link UnsupportedEncodingException} naming it; a
 * description that contradicts itself or the leaf's type throws {@link BadDataException}.
 */
final class Decompressors {
  private Decompressors() {}

  // ---------------------------------------------------------------- mini-block values

  /** A decoder of mini-block chunks holding the leaf's values. */
  static MiniBlockDecompressor miniBlock(CompressiveEncoding e, LeafType type) {
    switch (type.kind) {
      case FIXED:
        return fixedMiniBlock(e, type.bitsPerItem, type);
      case VARIABLE:
        return variableMiniBlock(e, type);
      case FSL:
        if (e.getCompressionCase() == CompressionCase.GENERAL) {
          return GeneralDecompressor.miniBlock(GeneralBuffers.scheme(e.getGeneral().getCompression()),
              miniBlock(inner(e), type));
        }
        return fsl(e, type, true);
      default:
        if (e.getCompressionCase() == CompressionCase.GENERAL) {
          return GeneralDecompressor.miniBlock(GeneralBuffers.scheme(e.getGeneral().getCompression()),
              miniBlock(inner(e), type));
        }
        if (e.getCompressionCase() != CompressionCase.PACKED_STRUCT) {
          throw new BadDataException("values are " + Protos21.name(e) + " but the field is a " + type);
        }
        return packedStruct(e, type);
    }
  }

  /**
   * A decoder of mini-block chunks of {@code bits}-bit fixed-width values.
   *
   * @param type the leaf's type, for messages
   */
  static MiniBlockDecompressor fixedMiniBlock(CompressiveEncoding e, int bits, Object type) {
    switch (e.getCompressionCase()) {
      case FLAT:
        return flat(e, bits, type);
      case INLINE_BITPACKING: {
        int t = wordBits(e.getInlineBitpacking().getUncompressedBitsPerValue(), bits, type);
        if (e.getInlineBitpacking().hasValues()) {
          throw new UnsupportedEncodingException("encoding 'inline_bitpacking' with buffer compression is not supported");
        }
        return new InlineBitpackingDecompressor(t);
      }
      case OUT_OF_LINE_BITPACKING:
        return outOfLine(e, bits, type);
      case RLE:
        return rle(e, bits, type);
      case BYTE_STREAM_SPLIT: {
        int t = flatBits(e.getByteStreamSplit().getValues(), "byte stream split values");
        if (t != bits || (t != 16 && t != 32 && t != 64)) {
          throw new BadDataException("byte stream split of " + t + "-bit values but the field is " + type);
        }
        return new ByteStreamSplitDecompressor(t);
      }
      case CONSTANT:
        return new ConstantDecompressor(constant(e, bits, type));
      case GENERAL:
        return GeneralDecompressor.miniBlock(GeneralBuffers.scheme(e.getGeneral().getCompression()),
            fixedMiniBlock(inner(e), bits, type));
      case PACKED_STRUCT: {
        // Whole rows of a packed struct as one fixed-width value (blob descriptions).
        List<Long> kids = e.getPackedStruct().getBitsPerValueList();
        long total = 0;
        int[] childBits = new int[kids.size()];
        for (int i = 0; i < childBits.length; i++) {
          childBits[i] = byteBits(kids.get(i), "packed struct child");
          total += childBits[i];
        }
        if (total != bits) {
          throw new BadDataException("packed struct rows of " + total + " bits but the field is " + type);
        }
        return new PackedStructDecompressor(childBits, fixedMiniBlock(e.getPackedStruct().getValues(), bits, type));
      }
      default:
        throw unsupported(e, "fixed-width mini-block values");
    }
  }

  private static MiniBlockDecompressor variableMiniBlock(CompressiveEncoding e, LeafType type) {
    switch (e.getCompressionCase()) {
      case VARIABLE:
        return new VariableDecompressor(variableOffsetBits(e) / 8);
      case FSST:
        return fsst(e);
      case GENERAL:
        return GeneralDecompressor.miniBlock(GeneralBuffers.scheme(e.getGeneral().getCompression()),
            variableMiniBlock(inner(e), type));
      case FLAT:
      case INLINE_BITPACKING:
      case RLE:
      case BYTE_STREAM_SPLIT:
      case CONSTANT:
      case FIXED_SIZE_LIST:
        throw new BadDataException("values are " + Protos21.name(e) + " but the field is " + type);
      default:
        throw unsupported(e, "variable-width mini-block values");
    }
  }

  private static FsstDecompressor fsst(CompressiveEncoding e) {
    FsstSymbolTable table;
    try {
      table = FsstSymbolTable.parse(e.getFsst().getSymbolTable().toByteArray());
    } catch (IllegalArgumentException ex) {
      throw new BadDataException("FSST symbol table: " + ex.getMessage());
    }
    CompressiveEncoding values = e.getFsst().getValues();
    if (values.getCompressionCase() != CompressionCase.VARIABLE) {
      throw unsupported(values, "FSST-compressed values");
    }
    return new FsstDecompressor(new FsstDecoder(table), variableOffsetBits(values));
  }

  private static MiniBlockDecompressor packedStruct(CompressiveEncoding e, LeafType type) {
    List<Long> kids = e.getPackedStruct().getBitsPerValueList();
    if (kids.size() != type.children.length) {
      throw new BadDataException("packed struct has " + kids.size() + " children but the field is " + type);
    }
    int[] bits = new int[kids.size()];
    int total = 0;
    for (int i = 0; i < bits.length; i++) {
      LeafType c = type.children[i];
      if (c.kind != LeafType.Kind.FIXED || kids.get(i) != c.bitsPerItem) {
        throw new BadDataException("packed struct child " + i + " has " + kids.get(i) + " bits but the field is "
            + type);
      }
      if (c.bitsPerItem % 8 != 0) {
        throw new UnsupportedEncodingException("packed struct children of " + c.bitsPerItem
            + " bits are not supported");
      }
      bits[i] = c.bitsPerItem;
      total += bits[i];
    }
    return new PackedStructDecompressor(bits, fixedMiniBlock(e.getPackedStruct().getValues(), total, type));
  }

  // ---------------------------------------------------------------- blocks

  /** A decoder of blocks of 16-bit repetition or definition levels. */
  static LevelDecompressor levels(CompressiveEncoding e) {
    return new LevelDecompressor(fixedBlock(e, 16, "16-bit levels"));
  }

  /** A decoder of blocks of {@code bits}-bit fixed-width values. */
  static BlockDecompressor fixedBlock(CompressiveEncoding e, int bits, Object type) {
    switch (e.getCompressionCase()) {
      case FLAT:
        return flat(e, bits, type);
      case INLINE_BITPACKING:
        if (e.getInlineBitpacking().hasValues()) {
          throw new UnsupportedEncodingException("encoding 'inline_bitpacking' with buffer compression is not supported");
        }
        return new InlineBitpackingDecompressor(wordBits(e.getInlineBitpacking().getUncompressedBitsPerValue(), bits,
            type));
      case OUT_OF_LINE_BITPACKING:
        return outOfLine(e, bits, type);
      case RLE:
        return rle(e, bits, type);
      case CONSTANT:
        return new ConstantDecompressor(constant(e, bits, type));
      case GENERAL:
        return GeneralDecompressor.block(GeneralBuffers.scheme(e.getGeneral().getCompression()),
            fixedBlock(inner(e), bits, type));
      default:
        throw unsupported(e, "blocks of fixed-width values");
    }
  }

  /** A decoder of a mini-block dictionary holding values of the leaf's type. */
  static BlockDecompressor dictionary(CompressiveEncoding e, LeafType type) {
    switch (type.kind) {
      case FIXED:
        return fixedBlock(e, type.bitsPerItem, type);
      case VARIABLE:
        return variableBlock(e);
      default:
        throw new UnsupportedEncodingException("a dictionary of " + type + " values is not supported");
    }
  }

  private static BlockDecompressor variableBlock(CompressiveEncoding e) {
    switch (e.getCompressionCase()) {
      case VARIABLE:
        return new VariableDecompressor(variableOffsetBits(e) / 8);
      case GENERAL:
        return GeneralDecompressor.block(GeneralBuffers.scheme(e.getGeneral().getCompression()),
            variableBlock(inner(e)));
      default:
        throw unsupported(e, "blocks of variable-width values");
    }
  }

  /**
   * The width of the fixed-width values an encoding produces, which for a dictionary page is the
   * width of its indices.
   */
  static int producedBits(CompressiveEncoding e) {
    switch (e.getCompressionCase()) {
      case FLAT:
        return bits(e.getFlat().getBitsPerValue());
      case INLINE_BITPACKING:
        return bits(e.getInlineBitpacking().getUncompressedBitsPerValue());
      case OUT_OF_LINE_BITPACKING:
        return bits(e.getOutOfLineBitpacking().getUncompressedBitsPerValue());
      case RLE:
        return flatBits(e.getRle().getValues(), "run values");
      case BYTE_STREAM_SPLIT:
        return flatBits(e.getByteStreamSplit().getValues(), "byte stream split values");
      case CONSTANT:
        return 8 * e.getConstant().getValue().size();
      case GENERAL:
        return producedBits(inner(e));
      default:
        throw unsupported(e, "dictionary indices");
    }
  }

  // ---------------------------------------------------------------- full-zip values

  static FixedPerValueDecompressor fixedPerValue(CompressiveEncoding e, LeafType type) {
    switch (e.getCompressionCase()) {
      case FLAT:
        if (type.kind != LeafType.Kind.FIXED) {
          throw new BadDataException("values are flat but the field is " + type);
        }
        if (type.bitsPerItem == 1 && !e.getFlat().hasData() && e.getFlat().getBitsPerValue() == 8) {
          // lance-core widens booleans to a byte each for full-zip, whose values must be whole bytes.
          return new ByteBoolDecompressor();
        }
        return flat(e, type.bitsPerItem, type);
      case FIXED_SIZE_LIST:
        return fsl(e, type, false);
      default:
        throw unsupported(e, "full-zip fixed-width values");
    }
  }

  static VariablePerValueDecompressor variablePerValue(CompressiveEncoding e, LeafType type) {
    if (type.kind == LeafType.Kind.PACKED) {
      if (e.getCompressionCase() != CompressionCase.VARIABLE_PACKED_STRUCT) {
        throw new BadDataException("values are " + Protos21.name(e) + " but the field is a " + type);
      }
      return variablePackedStruct(e.getVariablePackedStruct(), type);
    }
    if (type.kind != LeafType.Kind.VARIABLE) {
      throw new BadDataException("values are variable-width but the field is " + type);
    }
    return variableValue(e);
  }

  private static VariablePerValueDecompressor variableValue(CompressiveEncoding e) {
    switch (e.getCompressionCase()) {
      case VARIABLE:
        return new VariableDecompressor(variableOffsetBits(e) / 8);
      case FSST:
        return fsst(e);
      case GENERAL:
        if (!e.getGeneral().hasValues() || e.getGeneral().getValues().getCompressionCase() != CompressionCase.VARIABLE) {
          throw unsupported(inner(e), "general-compressed full-zip values");
        }
        return GeneralDecompressor.perValue(GeneralBuffers.scheme(e.getGeneral().getCompression()));
      default:
        throw unsupported(e, "full-zip variable-width values");
    }
  }

  private static VariablePerValueDecompressor variablePackedStruct(VariablePackedStruct v, LeafType type) {
    if (v.getFieldsCount() != type.children.length) {
      throw new BadDataException("packed struct has " + v.getFieldsCount() + " children but the field is " + type);
    }
    VariablePackedStructDecompressor.Child[] kids = new VariablePackedStructDecompressor.Child[type.children.length];
    for (int i = 0; i < kids.length; i++) {
      VariablePackedStruct.FieldEncoding f = v.getFields(i);
      LeafType c = type.children[i];
      switch (f.getLayoutCase()) {
        case BITS_PER_VALUE: {
          FixedPerValueDecompressor d = fixedPerValue(f.getValue(), c);
          if ((long) d.bytesPerValue() * 8 != f.getBitsPerValue()) {
            throw new BadDataException("packed struct child " + i + " says " + f.getBitsPerValue()
                + " bits per value but its encoding has " + (8L * d.bytesPerValue()));
          }
          kids[i] = VariablePackedStructDecompressor.Child.fixed(d);
          break;
        }
        case BITS_PER_LENGTH: {
          long len = f.getBitsPerLength();
          if (len != 32 && len != 64) {
            throw new BadDataException("packed struct child " + i + " has " + len + "-bit lengths");
          }
          kids[i] = VariablePackedStructDecompressor.Child.variable((int) len / 8, variablePerValue(f.getValue(), c));
          break;
        }
        default:
          throw new BadDataException("packed struct child " + i + " has no layout");
      }
    }
    return new VariablePackedStructDecompressor(kids);
  }

  // ---------------------------------------------------------------- shared pieces

  private static FlatDecompressor flat(CompressiveEncoding e, int bits, Object type) {
    if (e.getFlat().hasData()) {
      throw new UnsupportedEncodingException("encoding 'flat' with buffer compression "
          + e.getFlat().getData().getScheme() + " is not supported");
    }
    long b = e.getFlat().getBitsPerValue();
    if (b != bits) {
      throw new BadDataException("values are Flat with " + b + " bits but the field is " + type);
    }
    if (bits != 1 && bits % 8 != 0) {
      throw new UnsupportedEncodingException("flat values of " + bits + " bits are not supported");
    }
    return new FlatDecompressor(bits);
  }

  private static OutOfLineBitpackingDecompressor outOfLine(CompressiveEncoding e, int bits, Object type) {
    int t = wordBits(e.getOutOfLineBitpacking().getUncompressedBitsPerValue(), bits, type);
    CompressiveEncoding values = e.getOutOfLineBitpacking().getValues();
    if (values.getCompressionCase() != CompressionCase.FLAT) {
      throw unsupported(values, "out-of-line bit-packed values");
    }
    if (values.getFlat().hasData()) {
      throw new UnsupportedEncodingException("out-of-line bit-packed values with buffer compression are not supported");
    }
    long w = values.getFlat().getBitsPerValue();
    if (w < 0 || w > t) {
      throw new BadDataException("out-of-line bit-packing of " + t + "-bit values at " + w + " bits");
    }
    return new OutOfLineBitpackingDecompressor(t, (int) w);
  }

  private static RleDecompressor rle(CompressiveEncoding e, int bits, Object type) {
    int t = flatBits(e.getRle().getValues(), "run values");
    int lengths = flatBits(e.getRle().getRunLengths(), "run lengths");
    if (lengths != 8) {
      throw new UnsupportedEncodingException("run lengths of " + lengths + " bits are not supported");
    }
    if (t != bits || (t != 8 && t != 16 && t != 32 && t != 64)) {
      throw new BadDataException("run-length encoding of " + t + "-bit values but the field is " + type);
    }
    return new RleDecompressor(t);
  }

  private static byte[] constant(CompressiveEncoding e, int bits, Object type) {
    if (!e.getConstant().hasValue()) {
      return null;
    }
    byte[] v = e.getConstant().getValue().toByteArray();
    if (bits == 1 ? v.length != 1 : v.length * 8L != bits) {
      throw new BadDataException("constant of " + v.length + " bytes but the field is " + type);
    }
    return v;
  }

  private static FslDecompressor fsl(CompressiveEncoding e, LeafType type, boolean miniBlock) {
    if (type.kind != LeafType.Kind.FSL) {
      throw new BadDataException("values are a fixed-size list but the field is " + type);
    }
    List<Boolean> validity = new ArrayList<>();
    CompressiveEncoding cur = e;
    int layer = 0;
    while (cur.getCompressionCase() == CompressionCase.FIXED_SIZE_LIST) {
      FixedSizeList f = cur.getFixedSizeList();
      if (layer >= type.dims.length || f.getItemsPerValue() != type.dims[layer]) {
        throw new BadDataException("fixed-size list layer " + layer + " has " + f.getItemsPerValue()
            + " items per value but the field is " + type);
      }
      validity.add(f.getHasValidity());
      cur = f.getValues();
      layer++;
    }
    if (layer != type.dims.length) {
      throw new BadDataException("values have " + layer + " fixed-size list layers but the field is " + type);
    }
    boolean[] v = new boolean[validity.size()];
    for (int i = 0; i < v.length; i++) {
      v[i] = validity.get(i);
    }
    MiniBlockDecompressor items;
    if (cur.getCompressionCase() == CompressionCase.FLAT) {
      flat(cur, type.bitsPerItem, type);
      items = null;
    } else if (miniBlock) {
      items = fixedMiniBlock(cur, type.bitsPerItem, type);
    } else {
      throw unsupported(cur, "full-zip fixed-size list items");
    }
    return new FslDecompressor(type, v, items);
  }

  private static CompressiveEncoding inner(CompressiveEncoding e) {
    if (!e.getGeneral().hasValues()) {
      throw new BadDataException("general compression has no inner encoding");
    }
    if (!e.getGeneral().hasCompression()) {
      throw new BadDataException("general compression has no scheme");
    }
    return e.getGeneral().getValues();
  }

  private static int variableOffsetBits(CompressiveEncoding e) {
    if (e.getVariable().hasValues()) {
      throw new UnsupportedEncodingException("variable-width values with buffer compression "
          + e.getVariable().getValues().getScheme() + " are not supported");
    }
    CompressiveEncoding offsets = e.getVariable().getOffsets();
    if (offsets.getCompressionCase() != CompressionCase.FLAT) {
      throw unsupported(offsets, "variable-width offsets");
    }
    if (offsets.getFlat().hasData()) {
      throw new UnsupportedEncodingException("variable-width offsets with buffer compression are not supported");
    }
    long bits = offsets.getFlat().getBitsPerValue();
    if (bits != 32 && bits != 64) {
      throw new BadDataException("variable-width offsets have " + bits + " bits");
    }
    return (int) bits;
  }

  private static int flatBits(CompressiveEncoding e, String what) {
    if (e.getCompressionCase() != CompressionCase.FLAT) {
      throw unsupported(e, what);
    }
    Flat f = e.getFlat();
    if (f.hasData()) {
      throw new UnsupportedEncodingException(what + " with buffer compression are not supported");
    }
    return bits(f.getBitsPerValue());
  }

  /** A word width of 8, 16, 32 or 64 bits that must equal the field's. */
  private static int wordBits(long declared, int bits, Object type) {
    if (declared != bits || (bits != 8 && bits != 16 && bits != 32 && bits != 64)) {
      throw new BadDataException("bit-packing of " + declared + "-bit values but the field is " + type);
    }
    return bits;
  }

  private static int byteBits(long declared, String what) {
    if (declared <= 0 || declared % 8 != 0 || declared > 1 << 20) {
      throw new BadDataException(what + " has " + declared + " bits");
    }
    return (int) declared;
  }

  private static int bits(long declared) {
    if (declared <= 0 || declared > 1 << 24) {
      throw new BadDataException("values have " + Long.toUnsignedString(declared) + " bits");
    }
    return (int) declared;
  }

  private static UnsupportedEncodingException unsupported(CompressiveEncoding e, String where) {
    String name = e.getCompressionCase() == CompressionCase.COMPRESSION_NOT_SET ? "(none)" : Protos21.name(e);
    return new UnsupportedEncodingException("encoding '" + name + "' for " + where + " is not supported");
  }
}
