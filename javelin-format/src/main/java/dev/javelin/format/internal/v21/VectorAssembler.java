package dev.javelin.format.internal.v21;

import dev.javelin.format.exceptions.CorruptFileException;
import dev.javelin.format.exceptions.UnsupportedFormatException;
import dev.javelin.format.internal.encoding.BitBuffer;
import dev.javelin.format.schema.LanceField;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseLargeVariableWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.AbstractStructVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;

/**
 * Builds the Arrow vector of a top-level field from the entries of its leaf columns. Each struct
 * or list takes its validity and offsets from the first leaf below it, which carries them in its
 * levels; leaves bring their values.
 *
 * <p>For a node at layer i of a leaf, the node's elements are the entries that reach layer i
 * ({@link LeafPath#depthOf}) and start a new element there: those whose repetition level is at
 * least the number of lists below i (plus one when i is itself a list). An element is null when
 * its code is a null at layer i or above (a null parent hides its children).
 */
final class VectorAssembler {
  private final String location;
  private final List<LeafPath> paths;
  private final LeafEntries[] data;
  private final BufferAllocator allocator;

  VectorAssembler(String location, List<LeafPath> paths, LeafEntries[] data, BufferAllocator allocator) {
    this.location = location;
    this.paths = paths;
    this.data = data;
    this.allocator = allocator;
  }

  FieldVector build(LanceField top, long numRows) {
    FieldVector v = top.toArrow().createVector(allocator);
    try {
      int n = fill(v, top, 0, 0);
      if (n != numRows) {
        throw corrupt(top.name() + " decoded " + n + " rows where " + numRows + " were asked for");
      }
      return v;
    } catch (RuntimeException e) {
      v.close();
      throw e;
    }
  }

  private CorruptFileException corrupt(String what) {
    return new CorruptFileException(location, "Field " + what);
  }

  // Loads the node's buffers (and its children's) into v; returns its element count.
  private int fill(FieldVector v, LanceField f, int pos, int leaf) {
    LeafPath path = paths.get(leaf);
    LeafEntries e = data[leaf];
    int layer = path.layer(pos);
    int[] starts = elementStarts(path, e, layer);
    int n = starts == null ? e.size() : starts.length;
    switch (path.kinds[pos]) {
      case STRUCT: {
        AbstractStructVector sv = (AbstractStructVector) v;
        int childLeaf = leaf;
        for (int j = 0; j < f.children().size(); j++) {
          LanceField c = f.children().get(j);
          int cn = fill((FieldVector) sv.getChildByOrdinal(j), c, pos + 1, childLeaf);
          if (cn != n) {
            throw corrupt(path.name() + ": struct " + f.name() + " has " + n + " values but its child " + c.name()
                + " has " + cn);
          }
          childLeaf += LeafPath.countLeaves(c);
        }
        load(v, n, validity(e, starts, n, layer));
        return n;
      }
      case LIST: {
        long[] offsets = listOffsets(path, e, layer, starts, n);
        LanceField c = f.children().get(0);
        FieldVector child = v instanceof LargeListVector ? ((LargeListVector) v).getDataVector()
            : ((ListVector) v).getDataVector();
        int cn = fill(child, c, pos + 1, leaf);
        if (cn != offsets[n]) {
          throw corrupt(path.name() + ": list " + f.name() + " has " + offsets[n] + " items but its child has " + cn);
        }
        BitBuffer valid = validity(e, starts, n, layer);
        boolean large = v instanceof LargeListVector;
        ArrowBuf off = allocator.buffer((long) (n + 1) * (large ? 8 : 4));
        try {
          for (int i = 0; i <= n; i++) {
            if (large) {
              off.setLong(8L * i, offsets[i]);
            } else {
              if (offsets[i] > Integer.MAX_VALUE) {
                throw new UnsupportedFormatException(location, "List " + f.name() + " has more than 2^31 items in one read");
              }
              off.setInt(4L * i, (int) offsets[i]);
            }
          }
          loadWith(v, n, valid, off);
        } finally {
          off.close();
        }
        return n;
      }
      default:
        leaf(v, path, e, starts, n);
        return n;
    }
  }

  // Entry indices that start an element at this layer, or null when every entry does.
  private static int[] elementStarts(LeafPath path, LeafEntries e, int layer) {
    if (e.rep == null) {
      return null;
    }
    int thr = path.listsBelow(layer) + (path.isListLayer(layer) ? 1 : 0);
    int[] depth = path.depthTable();
    short[] rep = e.rep.array();
    short[] codes = e.codeArray();
    int[] out = new int[e.size()];
    int k = 0;
    for (int i = 0; i < e.size(); i++) {
      if (rep[i] >= thr && (codes == null || depth[codes[i]] <= layer)) {
        out[k++] = i;
      }
    }
    return Arrays.copyOf(out, k);
  }

  private static long[] listOffsets(LeafPath path, LeafEntries e, int layer, int[] starts, int n) {
    int childThr = path.listsBelow(layer - 1) + (path.isListLayer(layer - 1) ? 1 : 0);
    long[] offsets = new long[n + 1];
    int[] depth = path.depthTable();
    short[] rep = e.rep.array();
    short[] codes = e.codeArray();
    int el = -1;
    long items = 0;
    int next = 0;
    for (int i = 0; i < e.size(); i++) {
      if (next < n && starts[next] == i) {
        if (el >= 0) {
          offsets[el + 1] = items;
        }
        el = next++;
      }
      if (el >= 0 && rep[i] >= childThr && (codes == null || depth[codes[i]] <= layer - 1)) {
        items++;
      }
    }
    if (el >= 0) {
      offsets[el + 1] = items;
    }
    return offsets;
  }

  // The validity of n elements, or null when all are valid.
  private static BitBuffer validity(LeafEntries e, int[] starts, int n, int layer) {
    short[] codes = e.codeArray();
    if (codes == null) {
      return null;
    }
    BitBuffer b = new BitBuffer();
    // Null at this layer or above: codes 1 + 2 * l with l >= layer.
    int lowest = Codes.nullAt(layer);
    int k = 0;
    while (k < n) {
      int c = codes[starts == null ? k : starts[k]];
      boolean valid = !((c & 1) == 1 && c >= lowest);
      int j = k + 1;
      while (j < n) {
        int d = codes[starts == null ? j : starts[j]];
        if (!((d & 1) == 1 && d >= lowest) != valid) {
          break;
        }
        j++;
      }
      b.addRepeated(valid, j - k);
      k = j;
    }
    return b;
  }

  private void leaf(FieldVector v, LeafPath path, LeafEntries e, int[] starts, int n) {
    LeafValues values = e.values;
    if (values.count() != n) {
      throw corrupt(path.name() + " has " + n + " items but " + values.count() + " values");
    }
    BitBuffer valid = validity(e, starts, n, 0);
    switch (path.type.kind) {
      case FIXED:
        loadFixed(v, n, valid, (FixedValues) values);
        break;
      case VARIABLE:
        loadVariable(v, n, valid, (VarValues) values);
        break;
      case PACKED:
        loadPacked(v, n, valid, (PackedValues) values);
        break;
      default:
        loadFsl(v, n, valid, (FslValues) values);
    }
  }

  // A packed struct: the struct's validity from the levels, each child from its own values.
  private void loadPacked(FieldVector v, int n, BitBuffer valid, PackedValues values) {
    AbstractStructVector sv = (AbstractStructVector) v;
    load(v, n, valid);
    BitBuffer all = null;
    for (int j = 0; j < values.children.length; j++) {
      FieldVector child = (FieldVector) sv.getChildByOrdinal(j);
      LeafValues c = values.children[j];
      if (c.count() != n) {
        throw corrupt(sv.getName() + ": packed struct child " + j + " has " + c.count() + " values but the struct has "
            + n);
      }
      if (c instanceof FixedValues) {
        loadFixed(child, n, all, (FixedValues) c);
      } else {
        loadVariable(child, n, all, (VarValues) c);
      }
    }
  }

  private void loadFixed(FieldVector v, int n, BitBuffer valid, FixedValues values) {
    long bytes = values.bits == 1 ? (n + 7L) / 8 : (long) n * (values.bits / 8);
    ArrowBuf data = allocator.buffer(Math.max(bytes, 1));
    try {
      data.setBytes(0, values.array(), 0, bytes);
      loadWith(v, n, valid, data);
    } finally {
      data.close();
    }
  }

  private void loadVariable(FieldVector v, int n, BitBuffer valid, VarValues values) {
    // The vector's own offset width decides, whatever the file's offsets were.
    boolean large = v instanceof BaseLargeVariableWidthVector;
    long total = values.dataSize();
    if (!large && total > Integer.MAX_VALUE) {
      throw new UnsupportedFormatException(location, "More than 2 GiB of strings in one read; use large_string");
    }
    ArrowBuf off = allocator.buffer((long) (n + 1) * (large ? 8 : 4));
    ArrowBuf data = allocator.buffer(Math.max(total, 1));
    try {
      // The buffer was just allocated with room for n + 1 offsets, so they are stored without a
      // bounds check each (a million strings would otherwise pay a million checks).
      long[] ends = values.endsArray();
      long addr = off.memoryAddress();
      if (large) {
        MemoryUtil.putLong(addr, 0L);
        for (int i = 0; i < n; i++) {
          MemoryUtil.putLong(addr + 8L * (i + 1), ends[i]);
        }
      } else {
        MemoryUtil.putInt(addr, 0);
        for (int i = 0; i < n; i++) {
          MemoryUtil.putInt(addr + 4L * (i + 1), (int) ends[i]);
        }
      }
      data.setBytes(0, values.data(), 0, total);
      loadWith(v, n, valid, off, data);
    } finally {
      off.close();
      data.close();
    }
  }

  private void loadFsl(FieldVector v, int n, BitBuffer valid, FslValues values) {
    FieldVector cur = v;
    BitBuffer curValid = valid;
    long count = n;
    for (int l = 0; l < values.layers(); l++) {
      load(cur, (int) count, curValid);
      count *= values.type.dims[l];
      if (count > Integer.MAX_VALUE) {
        throw new UnsupportedFormatException(location, "Too many fixed-size list items in one read");
      }
      BitBuffer layer = values.validity[l];
      if (layer == null) {
        curValid = null;
      } else if (layer.size() == count) {
        curValid = layer;
      } else {
        curValid = new BitBuffer();
        curValid.addFrom(layer, 0, count);
      }
      cur = ((FixedSizeListVector) cur).getDataVector();
    }
    loadFixed(cur, (int) count, curValid, values.items);
  }

  private static int popCount(byte[] bits, int n) {
    int c = 0;
    int full = n >>> 3;
    for (int i = 0; i < full; i++) {
      c += Integer.bitCount(bits[i] & 0xFF);
    }
    for (int i = full * 8; i < n; i++) {
      c += (bits[i >>> 3] >>> (i & 7)) & 1;
    }
    return c;
  }

  private void load(FieldVector v, int n, BitBuffer valid) {
    loadWith(v, n, valid);
  }

  // valid == null: every element is valid.
  private void loadWith(FieldVector v, int n, BitBuffer valid, ArrowBuf... rest) {
    int nulls = valid == null ? 0 : n - popCount(valid.array(), n);
    ArrowBuf validity = allocator.buffer(Math.max(1, (n + 7) / 8));
    try {
      if (valid == null) {
        validity.setOne(0L, (n + 7) / 8);
      } else {
        validity.setBytes(0, valid.array(), 0, (n + 7) / 8);
      }
      List<ArrowBuf> bufs = new ArrayList<>();
      bufs.add(validity);
      for (ArrowBuf b : rest) {
        bufs.add(b);
      }
      v.loadFieldBuffers(new ArrowFieldNode(n, nulls), bufs);
    } finally {
      validity.close();
    }
  }
}
