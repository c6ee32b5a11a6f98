package dev.javelin.format;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;

/**
 * The fast path of {@link Gather#gather(FieldVector, int[], BufferAllocator)} for one source:
 * fixed-width columns, fixed-size lists of fixed-width values (vector embeddings), strings and
 * binaries are copied a row at a time as one block of bytes into buffers sized once. The general
 * gather expands a fixed-size list into one index per child value, which for a 16-float vector
 * column wrote 128 bytes of indices per row (the largest cost of routing rows in a clustering).
 */
final class BlockGather {
  private BlockGather() {}

  /**
   * A new vector holding {@code src[idx[0]], src[idx[1]], ...} (the caller closes it), or null
   * when {@code src} is of a kind this does not copy in blocks.
   */
  static FieldVector tryGather(FieldVector src, int[] idx, BufferAllocator allocator) {
    if (src instanceof BaseFixedWidthVector fw && !(src instanceof BitVector) && fw.getTypeWidth() > 0) {
      FieldVector dst = allocate(src, idx.length, allocator);
      try {
        copyValues(fw, fw.getTypeWidth(), idx, (BaseFixedWidthVector) dst, 1);
        copyValidity(src, idx, dst.getValidityBuffer());
        dst.setValueCount(idx.length);
        return dst;
      } catch (RuntimeException e) {
        dst.close();
        throw e;
      }
    }
    if (src instanceof FixedSizeListVector fsl && fsl.getDataVector() instanceof BaseFixedWidthVector child
        && !(child instanceof BitVector) && child.getTypeWidth() > 0 && fsl.getListSize() > 0) {
      FixedSizeListVector dst = (FixedSizeListVector) allocate(src, idx.length, allocator);
      try {
        int size = fsl.getListSize();
        BaseFixedWidthVector dstChild = (BaseFixedWidthVector) dst.getDataVector();
        copyValues(child, child.getTypeWidth(), idx, dstChild, size);
        copyValidity(src, idx, dst.getValidityBuffer());
        if (child.getNullCount() == 0) {
          setAll(dstChild.getValidityBuffer(), idx.length * size);
        } else {
          ArrowBuf v = dstChild.getValidityBuffer();
          for (int i = 0; i < idx.length; i++) {
            for (int j = 0; j < size; j++) {
              if (!child.isNull(idx[i] * size + j)) {
                BitVectorHelper.setBit(v, (long) i * size + j);
              }
            }
          }
        }
        dst.setValueCount(idx.length);
        return dst;
      } catch (RuntimeException e) {
        dst.close();
        throw e;
      }
    }
    if (src instanceof BaseVariableWidthVector vw) {
      return gatherVariable(vw, idx, allocator);
    }
    return null;
  }

  // Strings and binaries: sized once for the rows' bytes, then each value copied as one block.
  private static FieldVector gatherVariable(BaseVariableWidthVector src, int[] idx, BufferAllocator allocator) {
    ArrowBuf offsets = src.getOffsetBuffer();
    long bytes = 0;
    for (int i : idx) {
      bytes += offsets.getInt((i + 1L) * 4) - offsets.getInt(i * 4L);
    }
    BaseVariableWidthVector dst = (BaseVariableWidthVector) src.getField().createVector(allocator);
    try {
      dst.allocateNew(Math.max(bytes, 1), Math.max(idx.length, 1));
      ArrowBuf from = src.getDataBuffer();
      ArrowBuf to = dst.getDataBuffer();
      ArrowBuf toOffsets = dst.getOffsetBuffer();
      int at = 0;
      toOffsets.setInt(0, 0);
      for (int i = 0; i < idx.length; i++) {
        int start = offsets.getInt(idx[i] * 4L);
        int len = offsets.getInt((idx[i] + 1L) * 4) - start;
        if (len > 0) {
          to.setBytes(at, from, start, len);
        }
        at += len;
        toOffsets.setInt((i + 1L) * 4, at);
      }
      copyValidity(src, idx, dst.getValidityBuffer());
      dst.setLastSet(idx.length - 1);
      dst.setValueCount(idx.length);
      return dst;
    } catch (RuntimeException e) {
      dst.close();
      throw e;
    }
  }

  private static FieldVector allocate(FieldVector src, int n, BufferAllocator allocator) {
    FieldVector dst = src.getField().createVector(allocator);
    try {
      dst.setInitialCapacity(Math.max(n, 1));
      dst.allocateNew(); // zeroed, validity included
      return dst;
    } catch (RuntimeException e) {
      dst.close();
      throw e;
    }
  }

  // Row i of dst gets the `per` values of src starting at value idx[i] * per.
  private static void copyValues(BaseFixedWidthVector src, int width, int[] idx, BaseFixedWidthVector dst,
      int per) {
    ArrowBuf from = src.getDataBuffer();
    ArrowBuf to = dst.getDataBuffer();
    long row = (long) width * per;
    if (row == 8) {
      for (int i = 0; i < idx.length; i++) {
        to.setLong(i * 8L, from.getLong(idx[i] * 8L));
      }
    } else if (row == 4) {
      for (int i = 0; i < idx.length; i++) {
        to.setInt(i * 4L, from.getInt(idx[i] * 4L));
      }
    } else {
      for (int i = 0; i < idx.length; i++) {
        to.setBytes(i * row, from, idx[i] * row, row);
      }
    }
  }

  private static void copyValidity(FieldVector src, int[] idx, ArrowBuf to) {
    if (src.getNullCount() == 0) {
      setAll(to, idx.length);
      return;
    }
    for (int i = 0; i < idx.length; i++) {
      if (!src.isNull(idx[i])) {
        BitVectorHelper.setBit(to, i);
      }
    }
  }

  // Sets bits 0..n-1 (whole bytes at once) and leaves the rest clear.
  private static void setAll(ArrowBuf validity, int n) {
    int full = n >>> 3;
    for (int b = 0; b < full; b++) {
      validity.setByte(b, 0xFF);
    }
    for (int i = full << 3; i < n; i++) {
      BitVectorHelper.setBit(validity, i);
    }
  }
}
