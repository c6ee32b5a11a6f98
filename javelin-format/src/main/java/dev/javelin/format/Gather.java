package dev.javelin.format;

import java.util.Arrays;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;

/**
 * Builds a vector from chosen values of another, in any order and with repeats. Arrow Java's
 * {@code copyFromSafe} goes through its complex writers, which do not exist for every nesting
 * (a list of fixed-size lists, a large list of large lists), so nested vectors are gathered here
 * buffer by buffer and only leaves are copied value by value.
 */
final class Gather {
  private Gather() {}

  /** A new vector holding {@code src[idx[0]], src[idx[1]], ...}; the caller closes it. */
  static FieldVector gather(FieldVector src, int[] idx, BufferAllocator allocator) {
    FieldVector dst = src.getField().createVector(allocator);
    try {
      fill(src, idx, idx.length, dst);
      return dst;
    } catch (RuntimeException e) {
      dst.close();
      throw e;
    }
  }

  private static void fill(FieldVector src, int[] idx, int n, FieldVector dst) {
    dst.clear();
    dst.setInitialCapacity(Math.max(n, 1));
    dst.allocateNew();
    if (src instanceof ListVector) {
      ListVector s = (ListVector) src;
      ListVector d = (ListVector) dst;
      int[] child = new int[16];
      int m = 0;
      ArrowBuf so = s.getOffsetBuffer();
      ArrowBuf doff = d.getOffsetBuffer();
      doff.setInt(0, 0);
      for (int i = 0; i < n; i++) {
        int r = idx[i];
        if (!s.isNull(r)) {
          BitVectorHelper.setBit(d.getValidityBuffer(), i);
          int start = so.getInt((long) r * 4);
          int end = so.getInt((long) (r + 1) * 4);
          child = ensure(child, m + end - start);
          for (int k = start; k < end; k++) {
            child[m++] = k;
          }
        }
        doff.setInt((long) (i + 1) * 4, m);
      }
      fill((FieldVector) s.getDataVector(), child, m, (FieldVector) d.getDataVector());
      d.setLastSet(n - 1);
    } else if (src instanceof LargeListVector) {
      LargeListVector s = (LargeListVector) src;
      LargeListVector d = (LargeListVector) dst;
      int[] child = new int[16];
      int m = 0;
      ArrowBuf so = s.getOffsetBuffer();
      ArrowBuf doff = d.getOffsetBuffer();
      doff.setLong(0, 0);
      for (int i = 0; i < n; i++) {
        int r = idx[i];
        if (!s.isNull(r)) {
          BitVectorHelper.setBit(d.getValidityBuffer(), i);
          int start = Math.toIntExact(so.getLong((long) r * 8));
          int end = Math.toIntExact(so.getLong((long) (r + 1) * 8));
          child = ensure(child, m + end - start);
          for (int k = start; k < end; k++) {
            child[m++] = k;
          }
        }
        doff.setLong((long) (i + 1) * 8, m);
      }
      fill((FieldVector) s.getDataVector(), child, m, (FieldVector) d.getDataVector());
      d.setLastSet(n - 1);
    } else if (src instanceof FixedSizeListVector) {
      FixedSizeListVector s = (FixedSizeListVector) src;
      FixedSizeListVector d = (FixedSizeListVector) dst;
      int size = s.getListSize();
      int[] child = new int[n * size];
      for (int i = 0; i < n; i++) {
        if (!s.isNull(idx[i])) {
          BitVectorHelper.setBit(d.getValidityBuffer(), i);
        }
        for (int k = 0; k < size; k++) {
          child[i * size + k] = idx[i] * size + k;
        }
      }
      fill((FieldVector) s.getDataVector(), child, child.length, (FieldVector) d.getDataVector());
    } else if (src instanceof StructVector) {
      StructVector s = (StructVector) src;
      StructVector d = (StructVector) dst;
      for (int i = 0; i < n; i++) {
        if (s.isNull(idx[i])) {
          d.setNull(i);
        } else {
          d.setIndexDefined(i);
        }
      }
      for (String name : s.getChildFieldNames()) {
        fill((FieldVector) s.getChild(name), idx, n, (FieldVector) d.getChild(name));
      }
    } else {
      for (int i = 0; i < n; i++) {
        dst.copyFromSafe(idx[i], i, src);
      }
    }
    dst.setValueCount(n);
  }

  private static int[] ensure(int[] a, int size) {
    return size <= a.length ? a : Arrays.copyOf(a, Math.max(size, a.length * 2));
  }
}
