package dev.javelin.format.internal.v21;

import dev.javelin.format.internal.encoding.BitBuffer;
import dev.javelin.format.internal.encoding.ByteBuilder;
import dev.javelin.format.proto.Encodings21.CompressiveEncoding;
import java.nio.ByteBuffer;

/**
 * Fixed-size list values ({@code FixedSizeList} over {@code Flat}). A layer whose children have
 * nulls in the page gets a validity bitmap: in a mini-block chunk as its own buffer before the
 * items; in full-zip as ceil(children / 8) bytes in front of each value's items.
 */
final class FslEncoder implements MiniBlockValueEncoder, PerValueEncoder {
  private final FslValues values;
  private final int layersWithValidity;

  FslEncoder(FslValues values) {
    this.values = values;
    int n = 0;
    for (BitBuffer b : values.validity) {
      if (b != null) {
        n++;
      }
    }
    this.layersWithValidity = n;
  }

  @Override
  public CompressiveEncoding encoding() {
    CompressiveEncoding e = Protos21.flat(values.type.bitsPerItem);
    for (int l = values.layers() - 1; l >= 0; l--) {
      e = Protos21.fsl(values.type.dims[l], values.validity[l] != null, e);
    }
    return e;
  }

  @Override
  public int numBuffers() {
    return layersWithValidity + 1;
  }

  @Override
  public int[] bufferSizes(int from, int to) {
    int[] out = new int[numBuffers()];
    int k = 0;
    long n = to - from;
    for (int l = 0; l < values.layers(); l++) {
      if (values.validity[l] != null) {
        out[k++] = (int) ((n * values.cum(l) + 7) / 8);
      }
    }
    out[k] = (int) ((n * values.type.itemsPerValue * values.type.bitsPerItem + 7) / 8);
    return out;
  }

  @Override
  public byte[][] encode(int from, int to) {
    byte[][] out = new byte[numBuffers()][];
    int k = 0;
    long n = to - from;
    for (int l = 0; l < values.layers(); l++) {
      if (values.validity[l] != null) {
        out[k++] = values.validity[l].slice(from * values.cum(l), n * values.cum(l));
      }
    }
    long ipv = values.type.itemsPerValue;
    out[k] = values.items.slice((int) (from * ipv), (int) (to * ipv));
    return out;
  }

  @Override
  public boolean isVariable() {
    return false;
  }

  @Override
  public int bits() {
    long bytes = 0;
    for (int l = 0; l < values.layers(); l++) {
      if (values.validity[l] != null) {
        bytes += (values.cum(l) + 7) / 8;
      }
    }
    bytes += values.type.bitsPerItem / 8 * values.type.itemsPerValue;
    return (int) (bytes * 8);
  }

  @Override
  public ByteBuffer contiguous(int count) {
    if (layersWithValidity != 0 || count != values.count() || values.type.bitsPerItem % 8 != 0) {
      return null;
    }
    long bytes = (long) count * values.type.itemsPerValue * (values.type.bitsPerItem / 8);
    return ByteBuffer.wrap(values.items.array(), 0, (int) bytes).slice();
  }

  @Override
  public void write(int index, ByteBuilder out) {
    for (int l = 0; l < values.layers(); l++) {
      if (values.validity[l] != null) {
        byte[] bits = values.validity[l].slice(index * values.cum(l), values.cum(l));
        out.append(bits, 0, bits.length);
      }
    }
    long ipv = values.type.itemsPerValue;
    int w = values.type.bitsPerItem / 8;
    out.append(values.items.array(), (int) (index * ipv * w), (int) (ipv * w));
  }
}
