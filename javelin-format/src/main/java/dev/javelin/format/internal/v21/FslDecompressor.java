package dev.javelin.format.internal.v21;

import dev.javelin.format.exceptions.BadDataException;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Reads {@code FixedSizeList}: nested fixed-size lists flattened to their items. In a mini-block
 * chunk each layer with validity has its own bitmap buffer (outermost first), then the items
 * follow in the buffers of the items' own encoding; in full-zip each value carries its layers'
 * validity bytes before its (flat) items.
 */
final class FslDecompressor implements MiniBlockDecompressor, FixedPerValueDecompressor {
  private final LeafType type;
  private final boolean[] hasValidity;
  private final long[] cum;
  private final int validityBuffers;
  private final MiniBlockDecompressor items;

  /**
   * @param items the decoder of the flattened items, or null for flat items (full-zip)
   */
  FslDecompressor(LeafType type, boolean[] hasValidity, MiniBlockDecompressor items) {
    this.type = type;
    this.hasValidity = hasValidity;
    this.items = items;
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
    return validityBuffers + (items == null ? 1 : items.numBuffers());
  }

  @Override
  public void decode(ByteBuffer[] buffers, int numValues, LeafValues out) {
    FslValues v = (FslValues) out;
    int k = 0;
    for (int l = 0; l < cum.length; l++) {
      long bits = numValues * cum[l];
      if (hasValidity[l]) {
        if ((bits + 7) / 8 > buffers[k].limit()) {
          throw new BadDataException("validity of fixed-size list layer " + l + " needs " + ((bits + 7) / 8)
              + " bytes but its buffer has " + buffers[k].limit());
        }
        byte[] bytes = new byte[(int) ((bits + 7) / 8)];
        buffers[k].get(0, bytes);
        v.appendValidity(l, bytes, 0, bits);
        k++;
      } else {
        v.padValidity(l, bits);
      }
    }
    long n = numValues * type.itemsPerValue;
    if (n > Integer.MAX_VALUE - 64) {
      throw new BadDataException(numValues + " fixed-size lists hold too many items for one chunk");
    }
    int before = v.items.count();
    ByteBuffer[] rest = Arrays.copyOfRange(buffers, k, buffers.length);
    if (items == null) {
      new FlatDecompressor(type.bitsPerItem).decode(rest, (int) n, v.items);
    } else {
      items.decode(rest, (int) n, v.items);
    }
    if (v.items.count() - before != n) {
      throw new BadDataException("fixed-size list items decoded " + (v.items.count() - before) + " of " + n);
    }
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
    if (validityBuffers == 0) {
      // No validity bytes between values: the items are back to back, so take them in one copy.
      for (int l = 0; l < cum.length; l++) {
        v.padValidity(l, n * cum[l]);
      }
      v.items.appendFrom(data, pos, Math.toIntExact(n * type.itemsPerValue));
      v.addCount(n);
      return;
    }
    v.items.reserve(n * type.itemsPerValue);
    for (int i = 0; i < n; i++) {
      for (int l = 0; l < cum.length; l++) {
        if (hasValidity[l]) {
          int len = (int) ((cum[l] + 7) / 8);
          v.appendValidity(l, data, pos, cum[l]);
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
