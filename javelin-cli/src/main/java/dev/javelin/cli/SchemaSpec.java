package dev.javelin.cli;

import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * The {@code --schema} of {@code file write}: column types for a CSV, as
 * {@code NAME:TYPE[?],...}, for example {@code id:int64,name:utf8?,at:timestamp[us,UTC]}. A
 * trailing {@code ?} makes the column nullable; without it an empty cell is an error. Names are
 * trimmed and may not contain ':' or ','.
 */
final class SchemaSpec {
  // decimal(10,2), decimal128(10,2), and Lance's decimal:128:10:2.
  private static final Pattern DECIMAL =
      Pattern.compile("decimal(?:(128|256))?\\(\\s*(\\d+)\\s*,\\s*(\\d+)\\s*\\)|decimal:(128|256):(\\d+):(\\d+)");
  private static final Pattern FIXED_SIZE_BINARY =
      Pattern.compile("fixed_size_binary\\[(\\d+)\\]|fixed_size_binary:(\\d+)");
  // Lance's timestamp:us:UTC, timestamp:ns:- (no zone).
  private static final Pattern LANCE_TIMESTAMP = Pattern.compile("timestamp:(s|ms|us|ns):(.+)");
  private final Schema schema;
  // "--schema", or what the types were taken from ("the dataset at URI"), for messages.
  private final String origin;

  private SchemaSpec(Schema schema, String origin) {
    this.schema = schema;
    this.origin = origin;
  }

  Schema schema() {
    return schema;
  }

  /** Where the types come from, for messages: "--schema" or "the dataset at URI". */
  String origin() {
    return origin;
  }

  boolean fromSchemaOption() {
    return origin.equals("--schema");
  }

  List<String> names() {
    List<String> names = new ArrayList<>();
    for (Field f : schema.getFields()) {
      names.add(f.getName());
    }
    return names;
  }

  /**
   * The spec that parses CSV cells as the columns of {@code target}, or null if some column has
   * a type a CSV cell cannot hold (then the types are inferred, and the write checks them).
   */
  static SchemaSpec of(Schema target, String origin) {
    StringBuilder spec = new StringBuilder();
    for (Field f : target.getFields()) {
      if (!f.getChildren().isEmpty() || f.getName().contains(":") || f.getName().contains(",")) {
        return null;
      }
      spec.append(spec.length() == 0 ? "" : ",").append(f.getName()).append(':').append(name(f.getType()))
          .append(f.isNullable() ? "?" : "");
    }
    try {
      SchemaSpec parsed = new SchemaSpec(parse(spec.toString()).schema, origin);
      for (int i = 0; i < target.getFields().size(); i++) {
        if (!parsed.schema.getFields().get(i).getType().equals(target.getFields().get(i).getType())) {
          return null;
        }
      }
      return parsed;
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /**
   * Parses a spec.
   *
   * @throws IllegalArgumentException naming the part of the spec that is wrong
   */
  static SchemaSpec parse(String spec) {
    List<Field> fields = new ArrayList<>();
    Set<String> names = new LinkedHashSet<>();
    for (String part : splitTopLevel(spec)) {
      String p = part.trim();
      if (p.isEmpty()) {
        throw new IllegalArgumentException("'" + spec + "' has an empty column (expected NAME:TYPE,...)");
      }
      int colon = p.indexOf(':');
      if (colon < 0) {
        throw new IllegalArgumentException("'" + p + "' has no type (expected NAME:TYPE, e.g. " + p + ":int64)");
      }
      String name = p.substring(0, colon).trim();
      String type = p.substring(colon + 1).trim();
      if (name.isEmpty()) {
        throw new IllegalArgumentException("'" + p + "' has no column name");
      }
      if (!names.add(name)) {
        throw new IllegalArgumentException("column '" + name + "' appears twice");
      }
      boolean nullable = type.endsWith("?");
      if (nullable) {
        type = type.substring(0, type.length() - 1).trim();
      }
      ArrowType arrow = type(name, type);
      fields.add(new Field(name, new FieldType(nullable, arrow, null), null));
    }
    return new SchemaSpec(new Schema(fields), "--schema");
  }

  // Splits on commas outside brackets, so that timestamp[us,UTC] and decimal(10,2) stay whole.
  private static List<String> splitTopLevel(String spec) {
    List<String> parts = new ArrayList<>();
    int depth = 0;
    int from = 0;
    for (int i = 0; i < spec.length(); i++) {
      char c = spec.charAt(i);
      if (c == '[' || c == '(' || c == '<') {
        depth++;
      } else if (c == ']' || c == ')' || c == '>') {
        depth--;
      } else if (c == ',' && depth == 0) {
        parts.add(spec.substring(from, i));
        from = i + 1;
      }
    }
    parts.add(spec.substring(from));
    return parts;
  }

  private static ArrowType type(String column, String type) {
    String t = type.toLowerCase(Locale.ROOT);
    switch (t) {
      case "bool":
      case "boolean":
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
      case "float16":
      case "halffloat":
        return new ArrowType.FloatingPoint(FloatingPointPrecision.HALF);
      case "float32":
      case "float":
        return new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
      case "float64":
      case "double":
        return new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
      case "utf8":
      case "string":
        return ArrowType.Utf8.INSTANCE;
      case "large_utf8":
      case "large_string":
        return ArrowType.LargeUtf8.INSTANCE;
      case "binary":
        return ArrowType.Binary.INSTANCE;
      case "large_binary":
        return ArrowType.LargeBinary.INSTANCE;
      case "date32":
      case "date32:day":
      case "date":
        return new ArrowType.Date(DateUnit.DAY);
      case "date64":
      case "date64:ms":
        return new ArrowType.Date(DateUnit.MILLISECOND);
      case "time32[s]":
      case "time32:s":
        return new ArrowType.Time(TimeUnit.SECOND, 32);
      case "time32[ms]":
      case "time32:ms":
        return new ArrowType.Time(TimeUnit.MILLISECOND, 32);
      case "time64[us]":
      case "time64:us":
        return new ArrowType.Time(TimeUnit.MICROSECOND, 64);
      case "time64[ns]":
      case "time64:ns":
        return new ArrowType.Time(TimeUnit.NANOSECOND, 64);
      default:
        break;
    }
    java.util.regex.Matcher decimal = DECIMAL.matcher(t);
    if (decimal.matches()) {
      int bits = decimal.group(1) != null ? Integer.parseInt(decimal.group(1)) : decimal.group(4) != null
          ? Integer.parseInt(decimal.group(4)) : 128;
      int precision = Integer.parseInt(decimal.group(2) != null ? decimal.group(2) : decimal.group(5));
      int scale = Integer.parseInt(decimal.group(3) != null ? decimal.group(3) : decimal.group(6));
      int most = bits == 256 ? 76 : 38;
      if (precision < 1 || precision > most || scale > precision) {
        throw new IllegalArgumentException("column '" + column + "' has type '" + type + "': the precision must be 1 to "
            + most + " and the scale at most the precision");
      }
      if (decimal.group(1) == null && decimal.group(4) == null && precision > 38) {
        bits = 256;
      }
      return new ArrowType.Decimal(precision, scale, bits);
    }
    java.util.regex.Matcher fixed = FIXED_SIZE_BINARY.matcher(t);
    if (fixed.matches()) {
      return new ArrowType.FixedSizeBinary(Integer.parseInt(fixed.group(1) != null ? fixed.group(1) : fixed.group(2)));
    }
    java.util.regex.Matcher lanceTimestamp = LANCE_TIMESTAMP.matcher(type.trim());
    if (lanceTimestamp.matches()) {
      String tz = lanceTimestamp.group(2).equals("-") ? null : lanceTimestamp.group(2);
      return new ArrowType.Timestamp(unit(lanceTimestamp.group(1)), tz);
    }
    if (t.startsWith("timestamp[") && t.endsWith("]")) {
      String inner = type.substring("timestamp[".length(), type.length() - 1);
      String[] parts = inner.split(",", 2);
      TimeUnit unit = unit(parts[0].trim());
      if (unit != null) {
        String tz = parts.length == 2 ? parts[1].trim() : null;
        if (tz != null) {
          try {
            ZoneId.of(tz);
          } catch (DateTimeException e) {
            throw new IllegalArgumentException("column '" + column + "' has an unknown time zone '" + tz + "'");
          }
        }
        return new ArrowType.Timestamp(unit, tz);
      }
    }
    throw new IllegalArgumentException("column '" + column + "' has unknown type '" + type
        + "' (known: bool, int8..int64, uint8..uint64, float16, float32, float64, utf8, large_utf8, binary, "
        + "large_binary, date32, date64, time32[s|ms], time64[us|ns], timestamp[s|ms|us|ns(,TZ)], decimal(P,S), "
        + "fixed_size_binary[N])");
  }

  /** The spec's name for a type it can declare ("int32", "timestamp[us,UTC]"). */
  static String name(ArrowType type) {
    switch (type.getTypeID()) {
      case Bool:
        return "bool";
      case Int: {
        ArrowType.Int i = (ArrowType.Int) type;
        return (i.getIsSigned() ? "int" : "uint") + i.getBitWidth();
      }
      case FloatingPoint: {
        FloatingPointPrecision p = ((ArrowType.FloatingPoint) type).getPrecision();
        return p == FloatingPointPrecision.HALF ? "float16" : p == FloatingPointPrecision.SINGLE ? "float32" : "float64";
      }
      case Utf8:
        return "utf8";
      case LargeUtf8:
        return "large_utf8";
      case Binary:
        return "binary";
      case LargeBinary:
        return "large_binary";
      case FixedSizeBinary:
        return "fixed_size_binary[" + ((ArrowType.FixedSizeBinary) type).getByteWidth() + "]";
      case Date:
        return ((ArrowType.Date) type).getUnit() == DateUnit.DAY ? "date32" : "date64";
      case Time: {
        ArrowType.Time t = (ArrowType.Time) type;
        return "time" + t.getBitWidth() + "[" + unitName(t.getUnit()) + "]";
      }
      case Decimal: {
        ArrowType.Decimal d = (ArrowType.Decimal) type;
        return (d.getBitWidth() == 256 && d.getPrecision() <= 38 ? "decimal256" : "decimal") + "(" + d.getPrecision()
            + "," + d.getScale() + ")";
      }
      case Timestamp: {
        ArrowType.Timestamp t = (ArrowType.Timestamp) type;
        return "timestamp[" + unitName(t.getUnit()) + (t.getTimezone() == null ? "" : "," + t.getTimezone()) + "]";
      }
      default:
        return type.toString();
    }
  }

  private static String unitName(TimeUnit unit) {
    return unit == TimeUnit.SECOND ? "s" : unit == TimeUnit.MILLISECOND ? "ms" : unit == TimeUnit.MICROSECOND ? "us" : "ns";
  }

  /** A field's type as the CLI prints it, nested types included: list<utf8>, struct<a: int64>. */
  static String name(Field f) {
    switch (f.getType().getTypeID()) {
      case Struct: {
        List<String> children = new ArrayList<>();
        for (Field c : f.getChildren()) {
          children.add(c.getName() + ": " + name(c));
        }
        return "struct<" + String.join(", ", children) + ">";
      }
      case List:
        return "list<" + name(f.getChildren().get(0)) + ">";
      case LargeList:
        return "large_list<" + name(f.getChildren().get(0)) + ">";
      case FixedSizeList:
        return "fixed_size_list<" + name(f.getChildren().get(0)) + ", "
            + ((ArrowType.FixedSizeList) f.getType()).getListSize() + ">";
      case Map: {
        List<Field> kv = f.getChildren().get(0).getChildren();
        return "map<" + name(kv.get(0)) + ", " + name(kv.get(1)) + ">";
      }
      default:
        return name(f.getType());
    }
  }

  private static TimeUnit unit(String s) {
    switch (s) {
      case "s":
        return TimeUnit.SECOND;
      case "ms":
        return TimeUnit.MILLISECOND;
      case "us":
        return TimeUnit.MICROSECOND;
      case "ns":
        return TimeUnit.NANOSECOND;
      default:
        return null;
    }
  }

  /** For picocli. */
  static final class Converter implements ITypeConverter<SchemaSpec> {
    @Override
    public SchemaSpec convert(String value) {
      try {
        return parse(value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }
}
