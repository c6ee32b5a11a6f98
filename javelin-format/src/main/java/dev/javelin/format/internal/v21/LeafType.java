package dev.javelin.format.internal.v21;

import dev.javelin.format.exceptions.UnsupportedFormatException;
import dev.javelin.format.schema.LanceField;
import dev.javelin.format.schema.LogicalTypes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * How the values of one leaf column are laid out: fixed width (1-bit booleans included),
 * variable width with 32- or 64-bit offsets, (nested) fixed-size lists of fixed-width items, or a
 * packed struct (one column holding a struct of fixed- or variable-width children).
 */
final class LeafType {
  enum Kind {
    FIXED,
    VARIABLE,
    FSL,
    PACKED
  }

  final Kind kind;
  /** FIXED: bits per value (1 for booleans); FSL: bits per innermost item. */
  final int bitsPerItem;
  /** VARIABLE: 4 or 8. */
  final int offsetBytes;
  /** FSL: the dimension of each layer, outermost first. */
  final int[] dims;
  /** FSL: the product of the dimensions (items per value); 1 otherwise. */
  final long itemsPerValue;
  /** PACKED: the children's layouts, in field order; empty otherwise. */
  final LeafType[] children;

  private LeafType(Kind kind, int bitsPerItem, int offsetBytes, int[] dims) {
    this(kind, bitsPerItem, offsetBytes, dims, new LeafType[0]);
  }

  private LeafType(Kind kind, int bitsPerItem, int offsetBytes, int[] dims, LeafType[] children) {
    this.children = children;
    this.kind = kind;
    this.bitsPerItem = bitsPerItem;
    this.offsetBytes = offsetBytes;
    this.dims = dims;
    long c = 1;
    for (int d : dims) {
      c *= d;
    }
    this.itemsPerValue = c;
  }

  static LeafType fixed(int bits) {
    return new LeafType(Kind.FIXED, bits, 0, new int[0]);
  }

  static LeafType variable(int offsetBytes) {
    return new LeafType(Kind.VARIABLE, 0, offsetBytes, new int[0]);
  }

  static LeafType fsl(int[] dims, int itemBits) {
    return new LeafType(Kind.FSL, itemBits, 0, dims);
  }

  /** A packed struct of fixed- and variable-width children. */
  static LeafType packed(LeafType[] children) {
    return new LeafType(Kind.PACKED, 0, 0, new int[0], children);
  }

  /**
   * The layout of a leaf field's values.
   *
   * @throws UnsupportedFormatException for types 2.1 cannot store this way
   */
  static LeafType of(LanceField leaf) {
    if (LeafPath.isPacked(leaf)) {
      LeafType[] kids = new LeafType[leaf.children().size()];
      for (int i = 0; i < kids.length; i++) {
        LanceField c = leaf.children().get(i);
        if (c.isStruct() || c.isList() || c.isFixedSizeList()) {
          throw new UnsupportedFormatException(null, "Packed struct '" + leaf.name() + "' has a nested child '"
              + c.name() + "', which Javelin does not read");
        }
        kids[i] = of(c);
      }
      if (kids.length == 0) {
        throw new UnsupportedFormatException(null, "Packed struct '" + leaf.name() + "' has no children");
      }
      return packed(kids);
    }
    String t = leaf.logicalType();
    if (leaf.isFixedSizeList()) {
      List<Integer> dims = new ArrayList<>();
      String s = t;
      while (s.startsWith("fixed_size_list:")) {
        int last = s.lastIndexOf(':');
        int dim;
        try {
          dim = Integer.parseInt(s.substring(last + 1));
        } catch (NumberFormatException e) {
          throw new UnsupportedFormatException(null, "Bad fixed-size list type '" + t + "'");
        }
        if (dim <= 0) {
          throw new UnsupportedFormatException(null, "Fixed-size list '" + leaf.name() + "' has dimension " + dim);
        }
        dims.add(dim);
        s = s.substring("fixed_size_list:".length(), last);
      }
      int bits = fixedBits(s, leaf);
      return fsl(dims.stream().mapToInt(Integer::intValue).toArray(), bits);
    }
    ArrowType at = parse(t, leaf);
    switch (at.getTypeID()) {
      case Utf8:
      case Binary:
        return variable(4);
      case LargeUtf8:
      case LargeBinary:
        return variable(8);
      default:
        return fixed(fixedBits(t, leaf));
    }
  }

  private static ArrowType parse(String t, LanceField leaf) {
    try {
      return LogicalTypes.parsePrimitive(t);
    } catch (IllegalArgumentException e) {
      throw new UnsupportedFormatException(null,
          "Field '" + leaf.name() + "' has type '" + t + "', which Lance 2.1 support in Javelin does not cover");
    }
  }

  private static int fixedBits(String t, LanceField leaf) {
    ArrowType at = parse(t, leaf);
    switch (at.getTypeID()) {
      case Bool:
        return 1;
      case Int:
        return ((ArrowType.Int) at).getBitWidth();
      case FloatingPoint:
        switch (((ArrowType.FloatingPoint) at).getPrecision()) {
          case HALF:
            return 16;
          case SINGLE:
            return 32;
          default:
            return 64;
        }
      case Date:
        return ((ArrowType.Date) at).getUnit() == DateUnit.DAY ? 32 : 64;
      case Time:
        return ((ArrowType.Time) at).getBitWidth();
      case Timestamp:
      case Duration:
        return 64;
      case Decimal:
        return ((ArrowType.Decimal) at).getBitWidth();
      case FixedSizeBinary:
        return ((ArrowType.FixedSizeBinary) at).getByteWidth() * 8;
      default:
        throw new UnsupportedFormatException(null,
            "Field '" + leaf.name() + "' has type '" + t + "', which has no fixed-width 2.1 layout");
    }
  }

  /**
   * Lance's "max length" of a fixed-width value, which decides between mini-block (under 256
   * bytes) and full-zip: the byte width, with sub-byte items counting as 0.
   */
  long maxFixedBytes() {
    return (bitsPerItem / 8L) * itemsPerValue;
  }

  @Override
  public String toString() {
    switch (kind) {
      case FIXED:
        return "fixed(" + bitsPerItem + " bits)";
      case VARIABLE:
        return "variable(" + (offsetBytes * 8) + "-bit offsets)";
      case PACKED:
        return "packed" + Arrays.toString(children);
      default:
        return "fsl(" + Arrays.toString(dims) + " x " + bitsPerItem + " bits)";
    }
  }
}
