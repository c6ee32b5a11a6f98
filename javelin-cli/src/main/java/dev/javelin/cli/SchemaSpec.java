package dev.javelin.cli;

import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
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
  private final Schema schema;

  private SchemaSpec(Schema schema) {
    this.schema = schema;
  }

  Schema schema() {
    return schema;
  }

  /**
   * The spec that parses CSV cells as the columns of {@code target}, or null if some column has
   * a type a CSV cell cannot hold (then the types are inferred, and the write checks them).
   */
  static SchemaSpec of(Schema target) {
    StringBuilder spec = new StringBuilder();
    for (Field f : target.getFields()) {
      if (!f.getChildren().isEmpty() || f.getName().contains(":") || f.getName().contains(",")) {
        return null;
      }
      spec.append(spec.length() == 0 ? "" : ",").append(f.getName()).append(':').append(name(f.getType()))
          .append(f.isNullable() ? "?" : "");
    }
    try {
      SchemaSpec parsed = parse(spec.toString());
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
    return new SchemaSpec(new Schema(fields));
  }

  // Splits on commas outside brackets, so that timestamp[us,UTC] stays whole.
  private static List<String> splitTopLevel(String spec) {
    List<String> parts = new ArrayList<>();
    int depth = 0;
    int from = 0;
    for (int i = 0; i < spec.length(); i++) {
      char c = spec.charAt(i);
      if (c == '[') {
        depth++;
      } else if (c == ']') {
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
      case "date32":
      case "date":
        return new ArrowType.Date(DateUnit.DAY);
      default:
        break;
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
        + "' (known: bool, int8..int64, uint8..uint64, float32, float64, utf8, large_utf8, binary, date32, "
        + "timestamp[s|ms|us|ns(,TZ)])");
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
      case FloatingPoint:
        return ((ArrowType.FloatingPoint) type).getPrecision() == FloatingPointPrecision.SINGLE ? "float32" : "float64";
      case Utf8:
        return "utf8";
      case LargeUtf8:
        return "large_utf8";
      case Binary:
        return "binary";
      case Date:
        return "date32";
      case Timestamp: {
        ArrowType.Timestamp t = (ArrowType.Timestamp) type;
        String unit = t.getUnit() == TimeUnit.SECOND ? "s" : t.getUnit() == TimeUnit.MILLISECOND ? "ms"
            : t.getUnit() == TimeUnit.MICROSECOND ? "us" : "ns";
        return "timestamp[" + unit + (t.getTimezone() == null ? "" : "," + t.getTimezone()) + "]";
      }
      default:
        return type.toString();
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
