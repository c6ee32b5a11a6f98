package dev.javelin.format.internal.v21;

import dev.javelin.format.schema.LanceField;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseLargeVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.complex.AbstractStructVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.ListVector;

/**
 * Turns rows of an Arrow vector into the entries of one leaf column: walks the leaf's path
 * (structs, lists, the leaf), giving each leaf item, null list, empty list and list hidden by a
 * null parent one entry with its repetition level and definition code.
 *
 * <p>A null struct or list hides everything below it: its descendants get the struct's code, and
 * a list under it becomes a single entry. Values of null list items are never read.
 */
final class Shredder {
  private final LeafPath path;
  private final int[] childIndex;

  Shredder(LeafPath path) {
    this.path = path;
    int n = path.numLayers();
    this.childIndex = new int[n];
    for (int p = 0; p < n - 1; p++) {
      if (path.kinds[p] == LeafPath.Kind.STRUCT) {
        List<LanceField> kids = path.fields[p].children();
        int idx = -1;
        for (int k = 0; k < kids.size(); k++) {
          if (kids.get(k) == path.fields[p + 1]) {
            idx = k;
            break;
          }
        }
        childIndex[p] = idx;
      }
    }
  }

  /** Appends rows [from, to) of the top-level vector. */
  void shred(ValueVector top, int from, int to, LeafEntries out) {
    if (to > from) {
      int r = path.maxRep;
      walk(0, top, from, to, r, r, 0, out);
    }
    out.rows += to - from;
  }

  private static boolean isNull(ValueVector v, int i) {
    return v.isNull(i);
  }

  // All elements in [from, to) share `mask` (a code from a null ancestor, or 0); the first gets
  // repetition level firstRep and the others restRep.
  private void walk(int pos, ValueVector v, int from, int to, int firstRep, int restRep, int mask, LeafEntries out) {
    switch (path.kinds[pos]) {
      case STRUCT:
        struct(pos, (AbstractStructVector) v, from, to, firstRep, restRep, mask, out);
        break;
      case LIST:
        list(pos, v, from, to, firstRep, restRep, mask, out);
        break;
      default:
        leaf(v, from, to, firstRep, restRep, mask, out);
    }
  }

  private void struct(int pos, AbstractStructVector v, int from, int to, int firstRep, int restRep, int mask,
      LeafEntries out) {
    ValueVector child = v.getChildByOrdinal(childIndex[pos]);
    if (mask != 0) {
      walk(pos + 1, child, from, to, firstRep, restRep, mask, out);
      return;
    }
    int layer = path.layer(pos);
    int i = from;
    while (i < to) {
      boolean isNull = isNull(v, i);
      int j = i + 1;
      while (j < to && isNull(v, j) == isNull) {
        j++;
      }
      walk(pos + 1, child, i, j, i == from ? firstRep : restRep, restRep, isNull ? Codes.nullAt(layer) : 0, out);
      i = j;
    }
  }

  private void list(int pos, ValueVector v, int from, int to, int firstRep, int restRep, int mask, LeafEntries out) {
    int layer = path.layer(pos);
    int level = path.repLevel(layer);
    ArrowBuf offsets;
    boolean large = v instanceof LargeListVector;
    ValueVector child;
    if (large) {
      offsets = ((LargeListVector) v).getOffsetBuffer();
      child = ((LargeListVector) v).getDataVector();
    } else {
      offsets = ((ListVector) v).getOffsetBuffer();
      child = ((ListVector) v).getDataVector();
    }
    for (int i = from; i < to; i++) {
      int r = i == from ? firstRep : restRep;
      int startRep = r != 0 ? r : level;
      if (mask != 0) {
        out.add(startRep, mask);
      } else if (isNull(v, i)) {
        out.add(startRep, Codes.nullAt(layer));
      } else {
        long s = large ? offsets.getLong(8L * i) : offsets.getInt(4L * i);
        long e = large ? offsets.getLong(8L * (i + 1)) : offsets.getInt(4L * (i + 1));
        if (e <= s) {
          out.add(startRep, Codes.emptyAt(layer));
        } else {
          walk(pos + 1, child, (int) s, (int) e, startRep, 0, 0, out);
        }
      }
    }
  }

  private void leaf(ValueVector v, int from, int to, int firstRep, int restRep, int mask, LeafEntries out) {
    int n = to - from;
    if (out.rep != null) {
      out.rep.add(firstRep);
      out.rep.addRepeated(restRep, n - 1);
    }
    ArrowBuf bitmap;
    if (mask != 0) {
      out.addCodes(mask, n);
    } else if ((bitmap = ValidityRuns.bitmap(v, to)) != null) {
      int i = from;
      while (i < to) {
        boolean valid = ValidityRuns.valid(bitmap, i);
        int j = ValidityRuns.runEnd(bitmap, i + 1, to, valid);
        out.addCodes(valid ? 0 : Codes.nullAt(0), j - i);
        i = j;
      }
    } else {
      int i = from;
      while (i < to) {
        boolean isNull = isNull(v, i);
        int j = i + 1;
        while (j < to && isNull(v, j) == isNull) {
          j++;
        }
        out.addCodes(isNull ? Codes.nullAt(0) : 0, j - i);
        i = j;
      }
    }
    LeafType t = path.type;
    switch (t.kind) {
      case FIXED:
        ((FixedValues) out.values).appendFrom(((BaseFixedWidthVector) v).getDataBuffer(), from, n);
        break;
      case VARIABLE:
        variable(v, from, to, mask, (VarValues) out.values);
        break;
      default:
        fsl((FixedSizeListVector) v, from, n, (FslValues) out.values);
    }
  }

  private static void variable(ValueVector v, int from, int to, int mask, VarValues out) {
    boolean large = v instanceof BaseLargeVariableWidthVector;
    ArrowBuf offsets = large ? ((BaseLargeVariableWidthVector) v).getOffsetBuffer()
        : ((BaseVariableWidthVector) v).getOffsetBuffer();
    ArrowBuf data = large ? ((BaseLargeVariableWidthVector) v).getDataBuffer()
        : ((BaseVariableWidthVector) v).getDataBuffer();
    if (mask != 0) {
      out.appendNulls(to - from);
      return;
    }
    ArrowBuf bitmap = ValidityRuns.bitmap(v, to);
    int i = from;
    while (i < to) {
      if (bitmap != null) {
        boolean valid = ValidityRuns.valid(bitmap, i);
        int j = ValidityRuns.runEnd(bitmap, i + 1, to, valid);
        if (valid) {
          out.appendRun(data, offsets, large, i, j);
        } else {
          out.appendNulls(j - i);
        }
        i = j;
        continue;
      }
      if (v.isNull(i)) {
        out.appendNulls(1);
        i++;
        continue;
      }
      // A run of non-null values is copied at once: their bytes are contiguous in the vector.
      int j = i + 1;
      while (j < to && !v.isNull(j)) {
        j++;
      }
      out.appendRun(data, offsets, large, i, j);
      i = j;
    }
  }

  private static void fsl(FixedSizeListVector v, int from, int n, FslValues out) {
    ValueVector cur = v;
    long first = from;
    long count = n;
    for (int l = 0; l < out.layers(); l++) {
      int dim = out.type.dims[l];
      ValueVector child = ((FixedSizeListVector) cur).getDataVector();
      first *= dim;
      count *= dim;
      ArrowBuf validity = child.getValidityBuffer();
      if (validity.capacity() * 8 >= first + count) {
        out.appendValidity(l, validity, first, count);
      } else {
        out.padValidity(l, count);
      }
      cur = child;
    }
    ArrowBuf data = ((BaseFixedWidthVector) cur).getDataBuffer();
    out.items.appendFrom(data, first, (int) count);
    out.addCount(n);
  }
}
