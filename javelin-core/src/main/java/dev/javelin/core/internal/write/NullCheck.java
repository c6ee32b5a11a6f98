package dev.javelin.core.internal.write;

import dev.javelin.format.schema.LanceField;
import dev.javelin.format.schema.LanceSchema;
import dev.javelin.table.exceptions.TableErrors;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.BaseRepeatedValueVector;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.NonNullableStructVector;

/**
 * Refuses batches that hold nulls where the schema says a field is not nullable: a top-level
 * column, a struct child (where its struct is valid) or a list item (in a valid list). Arrow
 * vectors carry their own nullability, which incoming data may declare differently; what counts
 * is the dataset's schema. Lance fixed-size list items are always nullable, so they are never
 * checked.
 *
 * <p>Cheap: only fields with a non-nullable field in their subtree are visited, and a vector is
 * scanned position by position only when its validity bitmap has nulls and a parent's nulls or
 * a slice make the plain null count ambiguous.
 */
final class NullCheck {
  private final int[] columns;
  private final LanceField[] fields;

  private NullCheck(int[] columns, LanceField[] fields) {
    this.columns = columns;
    this.fields = fields;
  }

  /** The check for batches whose columns are {@code schema}'s top-level fields, in order. */
  static NullCheck of(LanceSchema schema) {
    List<Integer> idx = new ArrayList<>();
    List<LanceField> fs = new ArrayList<>();
    List<LanceField> top = schema.fields();
    for (int i = 0; i < top.size(); i++) {
      if (hasNonNullable(top.get(i))) {
        idx.add(i);
        fs.add(top.get(i));
      }
    }
    return new NullCheck(idx.stream().mapToInt(Integer::intValue).toArray(), fs.toArray(new LanceField[0]));
  }

  /**
   * Checks one batch.
   *
   * @param operation what writes it, for the message ("update")
   * @throws dev.javelin.table.exceptions.NullValueException naming the first non-nullable field holding nulls
   */
  void check(VectorSchemaRoot batch, String operation, String location) {
    for (int i = 0; i < columns.length; i++) {
      LanceField f = fields[i];
      String found = walk(f, batch.getVector(columns[i]), f.name(), 0, batch.getRowCount(), null);
      if (found != null) {
        throw TableErrors.nullsInNonNullable(location, found, operation);
      }
    }
  }

  private static boolean hasNonNullable(LanceField f) {
    if (!f.nullable()) {
      return true;
    }
    for (LanceField c : f.children()) {
      if (hasNonNullable(c)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The path of the first non-nullable field holding a null in {@code f}'s subtree, or null.
   * Looks at positions [from, to) of {@code v}: all of them when {@code live} is null, else only
   * the set bits of {@code live} (the positions whose ancestors are all valid).
   */
  private static String walk(LanceField f, ValueVector v, String path, int from, int to, BitSet live) {
    if (to <= from) {
      return null;
    }
    long nulls = nulls(v, from, to, live);
    if (!f.nullable() && nulls > 0) {
      return path;
    }
    if (f.children().isEmpty() || !hasNonNullable(f.children())) {
      return null;
    }
    // Below a null the children's values do not count: narrow to the valid positions.
    BitSet valid = nulls == 0 ? live : valid(v, from, to, live);
    if (f.isStruct()) {
      NonNullableStructVector s = (NonNullableStructVector) v;
      for (LanceField c : f.children()) {
        ValueVector cv = s.getChild(c.name());
        if (cv == null) {
          continue; // SchemaCheck matched the types; an absent child has no values to check
        }
        String found = walk(c, cv, path + "." + c.name(), from, to, valid);
        if (found != null) {
          return found;
        }
      }
      return null;
    }
    if (f.isList()) {
      LanceField item = f.children().get(0);
      ValueVector items = v instanceof LargeListVector l ? l.getDataVector()
          : ((BaseRepeatedValueVector) v).getDataVector();
      BitSet itemsLive = null;
      if (valid != null) {
        itemsLive = new BitSet();
        for (int i = valid.nextSetBit(from); i >= 0 && i < to; i = valid.nextSetBit(i + 1)) {
          itemsLive.set(offset(v, i), offset(v, i + 1));
        }
      }
      return walk(item, items, path + "." + item.name(), offset(v, from), offset(v, to), itemsLive);
    }
    return null;
  }

  private static boolean hasNonNullable(List<LanceField> fields) {
    for (LanceField c : fields) {
      if (hasNonNullable(c)) {
        return true;
      }
    }
    return false;
  }

  // Nulls among the positions looked at. The whole vector's count comes from its validity
  // bitmap; a part of it is counted only when the vector has nulls at all.
  private static long nulls(ValueVector v, int from, int to, BitSet live) {
    int all = v.getNullCount();
    if (all == 0) {
      return 0;
    }
    if (live == null && from == 0 && to == v.getValueCount()) {
      return all;
    }
    long n = 0;
    if (live == null) {
      for (int i = from; i < to; i++) {
        if (v.isNull(i)) {
          n++;
        }
      }
    } else {
      for (int i = live.nextSetBit(from); i >= 0 && i < to; i = live.nextSetBit(i + 1)) {
        if (v.isNull(i)) {
          n++;
        }
      }
    }
    return n;
  }

  private static BitSet valid(ValueVector v, int from, int to, BitSet live) {
    BitSet out = new BitSet(to);
    if (live == null) {
      for (int i = from; i < to; i++) {
        if (!v.isNull(i)) {
          out.set(i);
        }
      }
    } else {
      for (int i = live.nextSetBit(from); i >= 0 && i < to; i = live.nextSetBit(i + 1)) {
        if (!v.isNull(i)) {
          out.set(i);
        }
      }
    }
    return out;
  }

  // Where list value i starts in its items vector (i = value count: where the last one ends).
  private static int offset(ValueVector list, int i) {
    if (list instanceof LargeListVector l) {
      return Math.toIntExact(l.getOffsetBuffer().getLong((long) i * LargeListVector.OFFSET_WIDTH));
    }
    return ((BaseRepeatedValueVector) list).getOffsetBuffer().getInt((long) i * BaseRepeatedValueVector.OFFSET_WIDTH);
  }
}
