package dev.javelin.format.v21;

import java.nio.ByteBuffer;

/**
 * Reads {@code FixedSizeList} over {@code Flat}. In a mini-block chunk each layer with validity
 * has its own bitmap buffer, then the items follow; in full-zip each value carries its layers'
 * validity bytes before its items.
 */
final class FslDecompressor implements MiniBlockDecompressor, FixedPerValueDecompressor {
  private final LeafType type;
  private final boolean[] hasValidity;
  private final long[] cum;
  private final int validityBuffers;

  FslDecompressor(LeafType type, boolean[] hasValidity) {
    this.type = type;
    this.hasValidity = hasValidity;
    this.cum = new long[hasValidity.length];
    long c = 1;
    int n = 0;
    for (int l = 0; l < hasValidity.length; l++) {
      c *= type.dims[l];
      cum[l] = c;
      if (hasValidity[l]) {
        n++;
      }
    }
    this.validityBuffers = n;
  }

  @Override
  public int numBuffers() {
    return validityBuffers + 1;
  }

  @Override
  public void decode(ByteBuffer chunk, int[] offsets, int[] sizes, int numValues, LeafValues out) {
    FslValues v = (FslValues) out;
    int k = 0;
    for (int l = 0; l < cum.length; l++) {
      long bits = numValues * cum[l];
      if (hasValidity[l]) {
        if ((bits + 7) / 8 > sizes[k]) {
          throw new BadDataException("validity of fixed-size list layer " + l + " needs " + ((bits + 7) / 8)
              + " bytes but its buffer has " + sizes[k]);
        }
        byte[] bytes = new byte[(int) ((bits + 7) / 8)];
        chunk.get(offsets[k], bytes);
        v.appendValidity(l, bytes, 0, bits);
        k++;
      } else {
        v.padValidity(l, bits);
      }
    }
    long items = numValues * type.itemsPerValue;
    long need = (items * type.bitsPerItem + 7) / 8;
    if (need > sizes[k]) {
      throw new BadDataException(numValues + " fixed-size lists need " + need + " bytes of items but the buffer has "
          + sizes[k]);
    }
    v.items.appendFrom(chunk, offsets[k], (int) items);
    v.addCount(numValues);
  }

  @Override
  public int bytesPerValue() {
    long bytes = 0;
    for (int l = 0; l < cum.length; l++) {
      if (hasValidity[l]) {
        bytes += (cum[l] + 7) / 8;
      }
    }
    return (int) (bytes + type.bitsPerItem / 8 * type.itemsPerValue);
  }

  @Override
  public void decode(ByteBuffer data, int offset, int n, LeafValues out) {
    FslValues v = (FslValues) out;
    int pos = offset;
    int itemBytes = (int) (type.bitsPerItem / 8 * type.itemsPerValue);
    for (int i = 0; i < n; i++) {
      for (int l = 0; l < cum.length; l++) {
        if (hasValidity[l]) {
          int len = (int) ((cum[l] + 7) / 8);
          byte[] bytes = new byte[len];
          data.get(pos, bytes);
          v.appendValidity(l, bytes, 0, cum[l]);
          pos += len;
        } else {
          v.padValidity(l, cum[l]);
        }
      }
      v.items.appendFrom(data, pos, (int) type.itemsPerValue);
      pos += itemBytes;
      v.addCount(1);
    }
  }
}
