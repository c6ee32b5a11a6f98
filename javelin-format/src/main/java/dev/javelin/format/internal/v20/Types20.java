package dev.javelin.format.internal.v20;

import dev.javelin.format.schema.LanceField;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/** How the 2.0 layout sees a field: which encoder and decoder it takes. */
final class Types20 {
  private Types20() {}

  /** The column layouts of 2.0. */
  enum Kind {
    /** Fixed-width values, booleans and fixed-size lists of them: one column, Nullable/Flat pages. */
    FIXED,
    /** utf8, large_utf8, binary, large_binary: one column, Binary or Dictionary pages. */
    BINARY,
    /** list and large_list: an offsets column, then the item field's columns. */
    LIST,
    /** struct: a header column with SimpleStruct pages, then each child's columns. */
    STRUCT
  }

  static Kind kind(LanceField field) {
    if (isPacked(field)) {
      return null;
    }
    if (field.isStruct()) {
      return Kind.STRUCT;
    }
    if (field.isList()) {
      return Kind.LIST;
    }
    Field arrow = field.toArrow();
    if (isBinary(arrow.getType())) {
      return Kind.BINARY;
    }
    if (FixedLayout.of(arrow) != null) {
      return Kind.FIXED;
    }
    return null;
  }

  /** Lance stores a struct marked "packed" in one column (PackedStruct), which Javelin does not do. */
  static boolean isPacked(LanceField field) {
    return field.isStruct()
        && ("true".equalsIgnoreCase(field.metadata().get("packed"))
            || field.metadata().containsKey("lance-encoding:packed"));
  }

  static boolean isBinary(ArrowType type) {
    switch (type.getTypeID()) {
      case Utf8:
      case LargeUtf8:
      case Binary:
      case LargeBinary:
        return true;
      default:
        return false;
    }
  }

  static boolean isLargeBinary(ArrowType type) {
    return type.getTypeID() == ArrowType.ArrowTypeID.LargeUtf8
        || type.getTypeID() == ArrowType.ArrowTypeID.LargeBinary;
  }

  /**
   * Bitmaps per value of a fixed-width leaf type (1 for booleans), or -1 if the type is not one.
   */
  static int fixedBits(ArrowType type) {
    switch (type.getTypeID()) {
      case Bool:
        return 1;
      case Int:
        return ((ArrowType.Int) type).getBitWidth();
      case FloatingPoint:
        switch (((ArrowType.FloatingPoint) type).getPrecision()) {
          case HALF:
            return 16;
          case SINGLE:
            return 32;
          default:
            return 64;
        }
      case Date:
        return ((ArrowType.Date) type).getUnit() == DateUnit.DAY ? 32 : 64;
      case Time:
        return ((ArrowType.Time) type).getBitWidth();
      case Timestamp:
      case Duration:
        return 64;
      case Decimal:
        return ((ArrowType.Decimal) type).getBitWidth();
      case FixedSizeBinary:
        return ((ArrowType.FixedSizeBinary) type).getByteWidth() * 8;
      default:
        return -1;
    }
  }
}
