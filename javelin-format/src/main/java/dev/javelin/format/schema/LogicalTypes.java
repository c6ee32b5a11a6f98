package dev.javelin.format.schema;

import java.util.Locale;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Lance's logical type strings ("int32", "timestamp:us:UTC", "fixed_size_list:float:128", ...)
 * and the Arrow types they stand for.
 */
public final class LogicalTypes {
  private LogicalTypes() {}

  /**
   * The logical type string of an Arrow field.
   *
   * @throws IllegalArgumentException for types Lance has no name for (unions, ...) and for maps
   *     with sorted keys, which lance-core 7.0.0 refuses too
   */
  public static String of(Field field) {
    ArrowType type = field.getType();
    switch (type.getTypeID()) {
      case List:
        return isStruct(field.getChildren().get(0)) ? "list.struct" : "list";
      case LargeList:
        return isStruct(field.getChildren().get(0)) ? "large_list.struct" : "large_list";
      case FixedSizeList:
        return "fixed_size_list:"
            + of(field.getChildren().get(0))
            + ":"
            + ((ArrowType.FixedSizeList) type).getListSize();
      case Struct:
        return "struct";
      case Map:
        if (((ArrowType.Map) type).getKeysSorted()) {
          throw new IllegalArgumentException("Map field '" + field.getName()
              + "' has keys_sorted=true, which Lance does not support (lance-core 7.0.0 refuses it too)");
        }
        return "map";
      default:
        return ofPrimitive(type);
    }
  }

  private static boolean isStruct(Field f) {
    return f.getType().getTypeID() == ArrowType.ArrowTypeID.Struct;
  }

  /** The logical type string of a non-nested Arrow type. */
  public static String ofPrimitive(ArrowType type) {
    switch (type.getTypeID()) {
      case Null:
        return "null";
      case Bool:
        return "bool";
      case Int:
        {
          ArrowType.Int i = (ArrowType.Int) type;
          return (i.getIsSigned() ? "int" : "uint") + i.getBitWidth();
        }
      case FloatingPoint:
        switch (((ArrowType.FloatingPoint) type).getPrecision()) {
          case HALF:
            return "halffloat";
          case SINGLE:
            return "float";
          default:
            return "double";
        }
      case Decimal:
        {
          ArrowType.Decimal d = (ArrowType.Decimal) type;
          return "decimal:" + d.getBitWidth() + ":" + d.getPrecision() + ":" + d.getScale();
        }
      case Utf8:
        return "string";
      case LargeUtf8:
        return "large_string";
      case Binary:
        return "binary";
      case LargeBinary:
        return "large_binary";
      case Date:
        return ((ArrowType.Date) type).getUnit() == DateUnit.DAY ? "date32:day" : "date64:ms";
      case Time:
        {
          ArrowType.Time t = (ArrowType.Time) type;
          return "time" + t.getBitWidth() + ":" + unit(t.getUnit());
        }
      case Timestamp:
        {
          ArrowType.Timestamp t = (ArrowType.Timestamp) type;
          return "timestamp:" + unit(t.getUnit()) + ":" + (t.getTimezone() == null ? "-" : t.getTimezone());
        }
      case Duration:
        return "duration:" + unit(((ArrowType.Duration) type).getUnit());
      case FixedSizeBinary:
        return "fixed_size_binary:" + ((ArrowType.FixedSizeBinary) type).getByteWidth();
      default:
        throw new IllegalArgumentException("Lance has no logical type for Arrow type " + type);
    }
  }

  /**
   * The Arrow type of a non-nested logical type string. Nested types ("struct", "list",
   * "fixed_size_list:...") are built by {@link LanceField#toArrow()}.
   *
   * @throws IllegalArgumentException for strings Javelin does not know
   */
  public static ArrowType parsePrimitive(String logical) {
    String s = logical;
    switch (s) {
      case "null":
        return ArrowType.Null.INSTANCE;
      case "bool":
        return ArrowType.Bool.INSTANCE;
      case "int8":
        return new ArrowType.Int(8, true);
      case "int16":
        return new ArrowType.Int(16, true);
      case "int32":
        return new ArrowType.Int(32, true);
      case "int64":
        return new ArrowType.Int(64, true);
      case "uint8":
        return new ArrowType.Int(8, false);
      case "uint16":
        return new ArrowType.Int(16, false);
      case "uint32":
        return new ArrowType.Int(32, false);
      case "uint64":
        return new ArrowType.Int(64, false);
      case "halffloat":
        return new ArrowType.FloatingPoint(FloatingPointPrecision.HALF);
      case "float":
        return new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
      case "double":
        return new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
      case "string":
        return ArrowType.Utf8.INSTANCE;
      case "large_string":
        return ArrowType.LargeUtf8.INSTANCE;
      case "binary":
        return ArrowType.Binary.INSTANCE;
      case "large_binary":
        return ArrowType.LargeBinary.INSTANCE;
      case "date32:day":
        return new ArrowType.Date(DateUnit.DAY);
      case "date64:ms":
        return new ArrowType.Date(DateUnit.MILLISECOND);
      default:
        break;
    }
    String[] parts = s.split(":", 3);
    switch (parts[0]) {
      case "decimal":
        if (parts.length == 3) {
          String[] ps = parts[2].split(":");
          if (ps.length == 2) {
            return new ArrowType.Decimal(
                Integer.parseInt(ps[0]), Integer.parseInt(ps[1]), Integer.parseInt(parts[1]));
          }
        }
        break;
      case "time32":
      case "time64":
        if (parts.length == 2) {
          return new ArrowType.Time(unit(parts[1]), parts[0].equals("time32") ? 32 : 64);
        }
        break;
      case "timestamp":
        if (parts.length == 3) {
          return new ArrowType.Timestamp(unit(parts[1]), parts[2].equals("-") ? null : parts[2]);
        }
        break;
      case "duration":
        if (parts.length == 2) {
          return new ArrowType.Duration(unit(parts[1]));
        }
        break;
      case "fixed_size_binary":
        if (parts.length == 2 && Integer.parseInt(parts[1]) > 0) {
          return new ArrowType.FixedSizeBinary(Integer.parseInt(parts[1]));
        }
        break;
      default:
        break;
    }
    throw new IllegalArgumentException("Unknown Lance logical type '" + logical + "'");
  }

  private static String unit(TimeUnit unit) {
    switch (unit) {
      case SECOND:
        return "s";
      case MILLISECOND:
        return "ms";
      case MICROSECOND:
        return "us";
      default:
        return "ns";
    }
  }

  private static TimeUnit unit(String s) {
    switch (s.toLowerCase(Locale.ROOT)) {
      case "s":
        return TimeUnit.SECOND;
      case "ms":
        return TimeUnit.MILLISECOND;
      case "us":
        return TimeUnit.MICROSECOND;
      case "ns":
        return TimeUnit.NANOSECOND;
      default:
        throw new IllegalArgumentException("Unknown time unit '" + s + "'");
    }
  }
}
