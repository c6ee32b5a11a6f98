package dev.javelin.format.internal.v21;

import dev.javelin.format.exceptions.BadDataException;
import java.nio.ByteBuffer;

/**
 * Reads {@code VariablePackedStruct} (format 2.2), a full-zip value per struct row: for each
 * child in order, either its fixed-width bytes or a 32/64-bit length then its bytes, each child
 * value encoded by the child's own per-value encoding.
 */
final class VariablePackedStructDecompressor implements VariablePerValueDecompressor {
  /** One child: a fixed width in bytes (with its decoder), or a length prefix width (with its). */
  static final class Child {
    final int fixedBytes;
    final FixedPerValueDecompressor fixed;
    final int lengthBytes;
    final VariablePerValueDecompressor variable;

    private Child(int fixedBytes, FixedPerValueDecompressor fixed, int lengthBytes,
        VariablePerValueDecompressor variable) {
      this.fixedBytes = fixedBytes;
      this.fixed = fixed;
      this.lengthBytes = lengthBytes;
      this.variable = variable;
    }

    static Child fixed(FixedPerValueDecompressor d) {
      return new Child(d.bytesPerValue(), d, 0, null);
    }

    static Child variable(int lengthBytes, VariablePerValueDecompressor d) {
      return new Child(0, null, lengthBytes, d);
    }
  }

  private final Child[] children;

  VariablePackedStructDecompressor(Child[] children) {
    this.children = children;
  }

  @Override
  public void decode(ByteBuffer data, int offset, int length, LeafValues out) {
    PackedValues p = (PackedValues) out;
    int pos = offset;
    int end = offset + length;
    for (int c = 0; c < children.length; c++) {
      Child ch = children[c];
      if (ch.fixed != null) {
        if (pos + ch.fixedBytes > end) {
          throw new BadDataException("packed struct child " + c + " passes the end of its row");
        }
        ch.fixed.decode(data, pos, 1, p.children[c]);
        pos += ch.fixedBytes;
      } else {
        if (pos + ch.lengthBytes > end) {
          throw new BadDataException("packed struct child " + c + " has no room for its length");
        }
        long len = PageDecoder.unsigned(data, pos, ch.lengthBytes);
        pos += ch.lengthBytes;
        if (len < 0 || len > end - pos) {
          throw new BadDataException("packed struct child " + c + " has " + Long.toUnsignedString(len)
              + " bytes, past the end of its row");
        }
        ch.variable.decode(data, pos, (int) len, p.children[c]);
        pos += (int) len;
      }
    }
    if (pos != end) {
      throw new BadDataException("packed struct row has " + (end - pos) + " bytes left over");
    }
    p.addCount(1);
  }
}
