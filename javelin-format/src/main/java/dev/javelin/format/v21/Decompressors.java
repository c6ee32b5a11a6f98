package dev.javelin.format.v21;

import dev.javelin.format.proto.Encodings21.CompressiveEncoding;
import dev.javelin.format.proto.Encodings21.FixedSizeList;
import java.util.ArrayList;
import java.util.List;

/**
 * The registry of compressive encodings Javelin reads: picks the decoder class for an encoding
 * description and checks it fits the leaf's type. An encoding with no decoder yet throws
 * {@link UnsupportedEncodingException} naming it.
 */
final class Decompressors {
  private Decompressors() {}

  static MiniBlockDecompressor miniBlock(CompressiveEncoding e, LeafType type) {
    switch (e.getCompressionCase()) {
      case FLAT:
        return flat(e, type);
      case VARIABLE:
        return variable(e, type);
      case FIXED_SIZE_LIST:
        return fsl(e, type);
      default:
        throw unsupported(e, "mini-block values");
    }
  }

  static LevelDecompressor levels(CompressiveEncoding e) {
    if (e.getCompressionCase() == CompressiveEncoding.CompressionCase.FLAT) {
      long bits = e.getFlat().getBitsPerValue();
      if (bits != 16) {
        throw new BadDataException("repetition/definition levels are Flat with " + bits + " bits, not 16");
      }
      checkNoBufferCompression(e);
      return new FlatDecompressor(16);
    }
    throw unsupported(e, "repetition/definition levels");
  }

  static FixedPerValueDecompressor fixedPerValue(CompressiveEncoding e, LeafType type) {
    switch (e.getCompressionCase()) {
      case FLAT:
        return flat(e, type);
      case FIXED_SIZE_LIST:
        return fsl(e, type);
      default:
        throw unsupported(e, "full-zip fixed-width values");
    }
  }

  static VariablePerValueDecompressor variablePerValue(CompressiveEncoding e, LeafType type) {
    if (e.getCompressionCase() == CompressiveEncoding.CompressionCase.VARIABLE) {
      return variable(e, type);
    }
    throw unsupported(e, "full-zip variable-width values");
  }

  private static FlatDecompressor flat(CompressiveEncoding e, LeafType type) {
    checkNoBufferCompression(e);
    long bits = e.getFlat().getBitsPerValue();
    if (type.kind != LeafType.Kind.FIXED || bits != type.bitsPerItem) {
      throw new BadDataException("values are Flat with " + bits + " bits but the field is " + type);
    }
    return new FlatDecompressor((int) bits);
  }

  private static VariableDecompressor variable(CompressiveEncoding e, LeafType type) {
    if (e.getVariable().hasValues()) {
      throw unsupported(e, "variable-width values with buffer compression");
    }
    CompressiveEncoding offsets = e.getVariable().getOffsets();
    if (offsets.getCompressionCase() != CompressiveEncoding.CompressionCase.FLAT) {
      throw unsupported(offsets, "variable-width offsets");
    }
    checkNoBufferCompression(offsets);
    long bits = offsets.getFlat().getBitsPerValue();
    if (bits != 32 && bits != 64) {
      throw new BadDataException("variable-width offsets have " + bits + " bits");
    }
    if (type.kind != LeafType.Kind.VARIABLE) {
      throw new BadDataException("values are variable-width but the field is " + type);
    }
    return new VariableDecompressor((int) bits / 8);
  }

  private static FslDecompressor fsl(CompressiveEncoding e, LeafType type) {
    if (type.kind != LeafType.Kind.FSL) {
      throw new BadDataException("values are a fixed-size list but the field is " + type);
    }
    List<Boolean> validity = new ArrayList<>();
    CompressiveEncoding cur = e;
    int layer = 0;
    while (cur.getCompressionCase() == CompressiveEncoding.CompressionCase.FIXED_SIZE_LIST) {
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
    if (cur.getCompressionCase() != CompressiveEncoding.CompressionCase.FLAT) {
      throw unsupported(cur, "fixed-size list items");
    }
    checkNoBufferCompression(cur);
    if (cur.getFlat().getBitsPerValue() != type.bitsPerItem) {
      throw new BadDataException("fixed-size list items have " + cur.getFlat().getBitsPerValue()
          + " bits but the field is " + type);
    }
    boolean[] v = new boolean[validity.size()];
    for (int i = 0; i < v.length; i++) {
      v[i] = validity.get(i);
    }
    return new FslDecompressor(type, v);
  }

  private static void checkNoBufferCompression(CompressiveEncoding e) {
    if (e.getFlat().hasData()) {
      throw new UnsupportedEncodingException("encoding 'flat' with buffer compression "
          + e.getFlat().getData().getScheme() + " is not supported");
    }
  }

  private static UnsupportedEncodingException unsupported(CompressiveEncoding e, String where) {
    String name = e.getCompressionCase() == CompressiveEncoding.CompressionCase.COMPRESSION_NOT_SET
        ? "(none)" : Protos21.name(e);
    return new UnsupportedEncodingException("encoding '" + name + "' for " + where + " is not supported");
  }
}
