package dev.javelin.format;

import java.util.Arrays;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;

/**
 * Builds a vector from chosen values of one or more vectors of the same type, in any order and with
 * repeats. Arrow Java's {@code copyFromSafe} goes through its complex writers, which do not exist
 * for every nesting (a list of fixed-size lists, a large list of large lists), so nested vectors
 * are gathered here buffer by buffer and only leaves are copied value by value.
 */
public final class Gather {
  private Gather() {}

  /** A new vector holding {@code src[idx[0]], src[idx[1]], ...}; the caller closes it. */
  public static FieldVector gather(FieldVector src, int[] idx, BufferAllocator allocator) {
    FieldVector blocks = BlockGather.tryGather(src, idx, allocator);
    return blocks != null ? blocks : gather(new FieldVector[] {src}, new int[idx.length], idx, allocator);
  }

  /**
   * A new vector whose value i is {@code sources[source[i]][row[i]]}; all sources have the type of
   * {@code sources[0]}. The caller closes the result.
   */
  public static FieldVector gather(FieldVector[] sources, int[] source, int[] row, BufferAllocator allocator) {
    FieldVector dst = sources[0].getField().createVector(allocator);
    try {
      fill(sources, source, row, row.length, dst);
      return dst;
    } catch (RuntimeException e) {
      dst.close();
      throw e;
    }
  }

  private static void fill(FieldVector[] srcs, int[] from, int[] idx, int n, FieldVector dst) {
    dst.clear();
    dst.setInitialCapacity(Math.max(n, 1));
    dst.allocateNew();
    FieldVector first = srcs[0];
    if (first instanceof ListVector || first instanceof LargeListVector) {
      boolean large = first instanceof LargeListVector;
      int[] childFrom = new int[16];
      int[] child = new int[16];
      int m = 0;
      ArrowBuf doff = large ? ((LargeListVector) dst).getOffsetBuffer() : ((ListVector) dst).getOffsetBuffer();
      ArrowBuf validity = dst.getValidityBuffer();
      if (large) {
        doff.setLong(0, 0);
      } else {
        doff.setInt(0, 0);
      }
      for (int i = 0; i < n; i++) {
        FieldVector s = srcs[from[i]];
        int r = idx[i];
        if (!s.isNull(r)) {
          BitVectorHelper.setBit(validity, i);
          ArrowBuf so = s.getOffsetBuffer();
          int start = large ? Math.toIntExact(so.getLong((long) r * 8)) : so.getInt((long) r * 4);
          int end = large ? Math.toIntExact(so.getLong((long) (r + 1) * 8)) : so.getInt((long) (r + 1) * 4);
          child = ensure(child, m + end - start);
          childFrom = ensure(childFrom, m + end - start);
          for (int k = start; k < end; k++) {
            childFrom[m] = from[i];
            child[m++] = k;
          }
        }
        if (large) {
          doff.setLong((long) (i + 1) * 8, m);
        } else {
          doff.setInt((long) (i + 1) * 4, m);
        }
      }
      FieldVector[] kids = new FieldVector[srcs.length];
      for (int k = 0; k < srcs.length; k++) {
        kids[k] = (FieldVector) (large ? ((LargeListVector) srcs[k]).getDataVector() : ((ListVector) srcs[k]).getDataVector());
      }
      FieldVector dstChild = (FieldVector) (large ? ((LargeListVector) dst).getDataVector() : ((ListVector) dst).getDataVector());
      fill(kids, childFrom, child, m, dstChild);
      if (large) {
        ((LargeListVector) dst).setLastSet(n - 1);
      } else {
        ((ListVector) dst).setLastSet(n - 1);
      }
    } else if (first instanceof FixedSizeListVector) {
      FixedSizeListVector d = (FixedSizeListVector) dst;
      int size = ((FixedSizeListVector) first).getListSize();
      int[] childFrom = new int[n * size];
      int[] child = new int[n * size];
      for (int i = 0; i < n; i++) {
        if (!srcs[from[i]].isNull(idx[i])) {
          BitVectorHelper.setBit(d.getValidityBuffer(), i);
        }
        for (int k = 0; k < size; k++) {
          childFrom[i * size + k] = from[i];
          child[i * size + k] = idx[i] * size + k;
        }
      }
      FieldVector[] kids = new FieldVector[srcs.length];
      for (int k = 0; k < srcs.length; k++) {
        kids[k] = (FieldVector) ((FixedSizeListVector) srcs[k]).getDataVector();
      }
      fill(kids, childFrom, child, child.length, (FieldVector) d.getDataVector());
    } else if (first instanceof StructVector) {
      StructVector d = (StructVector) dst;
      for (int i = 0; i < n; i++) {
        if (srcs[from[i]].isNull(idx[i])) {
          d.setNull(i);
        } else {
          d.setIndexDefined(i);
        }
      }
      for (String name : ((StructVector) first).getChildFieldNames()) {
        FieldVector[] kids = new FieldVector[srcs.length];
        for (int k = 0; k < srcs.length; k++) {
          kids[k] = (FieldVector) ((StructVector) srcs[k]).getChild(name);
        }
        fill(kids, from, idx, n, (FieldVector) d.getChild(name));
      }
    } else if (first instanceof BaseFixedWidthVector && ((BaseFixedWidthVector) first).getTypeWidth() > 0
        && dst.getValueCapacity() >= n) {
      copyFixedWidth(srcs, from, idx, n, (BaseFixedWidthVector) dst, ((BaseFixedWidthVector) first).getTypeWidth());
    } else {
      for (int i = 0; i < n; i++) {
        dst.copyFromSafe(idx[i], i, srcs[from[i]]);
      }
    }
    dst.setValueCount(n);
  }

  // Fixed-width leaves (the floats of a vector column, say) are copied a run of consecutive
  // source values at a time, bytes and validity, instead of value by value through copyFromSafe.
  private static void copyFixedWidth(FieldVector[] srcs, int[] from, int[] idx, int n, BaseFixedWidthVector dst,
      int width) {
    ArrowBuf data = dst.getDataBuffer();
    ArrowBuf validity = dst.getValidityBuffer();
    // Per source: 0 not yet known, 1 without nulls, 2 with (counting nulls scans the vector).
    byte[] nulls = new byte[srcs.length];
    int i = 0;
    while (i < n) {
      int s = from[i];
      int start = idx[i];
      int len = 1;
      while (i + len < n && from[i + len] == s && idx[i + len] == start + len) {
        len++;
      }
      FieldVector src = srcs[s];
      data.setBytes((long) i * width, src.getDataBuffer(), (long) start * width, (long) len * width);
      if (nulls[s] == 0) {
        nulls[s] = (byte) (src.getNullCount() == 0 ? 1 : 2);
      }
      boolean noNulls = nulls[s] == 1;
      for (int k = 0; k < len; k++) {
        if (noNulls || !src.isNull(start + k)) {
          BitVectorHelper.setBit(validity, i + k);
        }
      }
      i += len;
    }
  }

  private static int[] ensure(int[] a, int size) {
    return size <= a.length ? a : Arrays.copyOf(a, Math.max(size, a.length * 2));
  }
}
