package dev.javelin.format.internal.v20;

import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * The shape of a fixed-width value: a leaf of {@code bits} bits per value, or a fixed-size list of
 * {@code dimension} items that are themselves fixed-width. Immutable.
 */
final class FixedLayout {
  /** Bitmaps per value of a leaf (1 for booleans); 0 for a fixed-size list. */
  final int bits;
  /** Items per value of a fixed-size list; 0 for a leaf. */
  final int dimension;
  /** The item layout of a fixed-size list; null for a leaf. */
  final FixedLayout items;

  private FixedLayout(int bits, int dimension, FixedLayout items) {
    this.bits = bits;
    this.dimension = dimension;
    this.items = items;
  }

  /** The layout of an Arrow field, or null if it is not fixed-width all the way down. */
  static FixedLayout of(Field field) {
    ArrowType type = field.getType();
    if (type instanceof ArrowType.FixedSizeList) {
      FixedLayout items = of(field.getChildren().get(0));
      int dim = ((ArrowType.FixedSizeList) type).getListSize();
      return items == null ? null : new FixedLayout(0, dim, items);
    }
    int bits = Types20.fixedBits(type);
    return bits <= 0 ? null : new FixedLayout(bits, 0, null);
  }

  boolean isList() {
    return items != null;
  }
}
