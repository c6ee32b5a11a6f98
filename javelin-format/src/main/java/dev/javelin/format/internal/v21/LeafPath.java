package dev.javelin.format.internal.v21;

import dev.javelin.format.exceptions.UnsupportedFormatException;
import dev.javelin.format.schema.LanceField;
import java.util.ArrayList;
import java.util.List;

/**
 * The path from a top-level field down to one leaf column: the structs and lists passed on the
 * way, then the leaf. In 2.1 each node of the path is one repetition/definition layer of the
 * leaf's column. Layers are numbered innermost first (layer 0 is the leaf), as in the file.
 */
final class LeafPath {
  enum Kind {
    STRUCT,
    LIST,
    LEAF
  }

  /** Fields from the top-level field (index 0) down to the leaf. */
  final LanceField[] fields;
  final Kind[] kinds;
  final LeafType type;
  /** The number of list layers, which is also the highest repetition level. */
  final int maxRep;

  private LeafPath(List<LanceField> fields, List<Kind> kinds) {
    this.fields = fields.toArray(new LanceField[0]);
    this.kinds = kinds.toArray(new Kind[0]);
    this.type = LeafType.of(this.fields[this.fields.length - 1]);
    int lists = 0;
    for (Kind k : this.kinds) {
      if (k == Kind.LIST) {
        lists++;
      }
    }
    this.maxRep = lists;
  }

  /** The leaf paths of a top-level field, in column (pre-order) order. */
  static List<LeafPath> leaves(LanceField top) {
    List<LeafPath> out = new ArrayList<>();
    collect(top, new ArrayList<>(), new ArrayList<>(), out);
    return out;
  }

  /** Whether Lance stores this struct packed into one column (field metadata "packed"). */
  static boolean isPacked(LanceField f) {
    if (!f.isStruct()) {
      return false;
    }
    for (String key : new String[] {"packed", "lance-encoding:packed"}) {
      String v = f.metadata().get(key);
      if (v != null && v.equalsIgnoreCase("true")) {
        return true;
      }
    }
    return false;
  }

  /** The number of 2.1 columns a field occupies: one per leaf. */
  static int countLeaves(LanceField f) {
    if (isPacked(f)) {
      return 1;
    }
    if (f.isStruct()) {
      if (f.children().isEmpty()) {
        return 1; // Lance stores an empty struct as one all-null column
      }
      int n = 0;
      for (LanceField c : f.children()) {
        n += countLeaves(c);
      }
      return n;
    }
    if (f.isList()) {
      return f.children().isEmpty() ? 1 : countLeaves(f.children().get(0));
    }
    return 1;
  }

  private static void collect(LanceField f, List<LanceField> fields, List<Kind> kinds, List<LeafPath> out) {
    fields.add(f);
    if (isPacked(f)) {
      // One column holds the whole struct: it is the leaf.
      kinds.add(Kind.LEAF);
      out.add(new LeafPath(fields, kinds));
    } else if (f.isStruct()) {
      if (f.children().isEmpty()) {
        throw new UnsupportedFormatException(null, "Struct field '" + f.name() + "' has no children");
      }
      kinds.add(Kind.STRUCT);
      for (LanceField c : f.children()) {
        collect(c, fields, kinds, out);
      }
    } else if (f.isList()) {
      if (f.children().size() != 1) {
        throw new UnsupportedFormatException(null, "List field '" + f.name() + "' must have one child");
      }
      kinds.add(Kind.LIST);
      collect(f.children().get(0), fields, kinds, out);
    } else {
      kinds.add(Kind.LEAF);
      out.add(new LeafPath(fields, kinds));
    }
    fields.remove(fields.size() - 1);
    kinds.remove(kinds.size() - 1);
  }

  int numLayers() {
    return fields.length;
  }

  /** The path position (0 = top) of a layer (0 = leaf). */
  int position(int layer) {
    return fields.length - 1 - layer;
  }

  /** The layer (0 = leaf) of a path position (0 = top). */
  int layer(int position) {
    return fields.length - 1 - position;
  }

  boolean isListLayer(int layer) {
    return kinds[position(layer)] == Kind.LIST;
  }

  /** List layers strictly inside (below) the given layer. */
  int listsBelow(int layer) {
    int n = 0;
    for (int l = 0; l < layer; l++) {
      if (isListLayer(l)) {
        n++;
      }
    }
    return n;
  }

  /** The repetition level that starts a new list at a list layer. */
  int repLevel(int listLayer) {
    return listsBelow(listLayer) + 1;
  }

  /** The innermost list layer, or -1 when the path has no list. */
  int firstListLayer() {
    for (int l = 0; l < fields.length; l++) {
      if (isListLayer(l)) {
        return l;
      }
    }
    return -1;
  }

  private int[] depthTable;

  /** {@link #depthOf} for every code of this path, as a table. */
  int[] depthTable() {
    if (depthTable == null) {
      int[] t = new int[2 * fields.length + 1];
      for (int c = 0; c < t.length; c++) {
        t[c] = depthOf(c);
      }
      depthTable = t;
    }
    return depthTable;
  }

  /**
   * The innermost layer an entry with this canonical code reaches: 0 (the leaf) for valid items
   * and nulls that only mask items, else the list layer where the entry stops.
   */
  int depthOf(int code) {
    if (code == 0) {
      return 0;
    }
    int layer = Codes.layer(code);
    if (isListLayer(layer)) {
      return layer;
    }
    // A null struct or item: it reaches down to the first list below it (masking it), or the leaf.
    for (int l = layer - 1; l > 0; l--) {
      if (isListLayer(l)) {
        return l;
      }
    }
    return 0;
  }

  String name() {
    StringBuilder b = new StringBuilder();
    for (LanceField f : fields) {
      b.append(b.length() == 0 ? "" : ".").append(f.name());
    }
    return b.toString();
  }
}
