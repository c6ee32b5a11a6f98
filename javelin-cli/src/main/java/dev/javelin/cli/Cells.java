package dev.javelin.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonpCharacterEscapes;
import dev.javelin.common.Json;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DateMilliVector;
import org.apache.arrow.vector.Float2Vector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeNanoVector;
import org.apache.arrow.vector.TimeSecVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * How one value of an Arrow vector is shown: as JSON (lists as arrays, structs as objects, binary
 * as base64, dates and times as ISO-8601 strings, NaN and infinities as strings since JSON has no
 * such numbers) or as plain text for a table or CSV cell (the same, but a top-level string or
 * date is not quoted).
 */
final class Cells {
  private Cells() {}

  /** Whether a column holds numbers, which tables align to the right. */
  static boolean numeric(Field f) {
    switch (f.getType().getTypeID()) {
      case Int:
      case FloatingPoint:
      case Decimal:
        return true;
      default:
        return false;
    }
  }

  /** The value as text, or null if it is null; nested values as JSON. */
  static String text(ValueVector v, int i) {
    if (v.isNull(i)) {
      return null;
    }
    if (nested(v)) {
      return json(g -> json(v, i, g));
    }
    return scalar(v, i);
  }

  /**
   * What {@code body} writes, as the CLI prints JSON: compact, and with U+2028 and U+2029
   * escaped too, so that a line of output is also a line of JavaScript.
   */
  static String json(Json.Body body) {
    return Json.generate(g -> {
      g.setCharacterEscapes(JsonpCharacterEscapes.instance());
      body.write(g);
    });
  }

  /** Writes the value as JSON. */
  static void json(ValueVector v, int i, JsonGenerator g) throws IOException {
    if (v.isNull(i)) {
      g.writeNull();
    } else if (v instanceof StructVector) {
      g.writeStartObject();
      for (ValueVector child : ((StructVector) v).getChildrenFromFields()) {
        g.writeFieldName(child.getName());
        json(child, i, g);
      }
      g.writeEndObject();
    } else if (v instanceof ListVector) {
      ListVector l = (ListVector) v;
      array(l.getDataVector(), l.getElementStartIndex(i), l.getElementEndIndex(i), g);
    } else if (v instanceof LargeListVector) {
      LargeListVector l = (LargeListVector) v;
      array(l.getDataVector(), Math.toIntExact(l.getElementStartIndex(i)), Math.toIntExact(l.getElementEndIndex(i)),
          g);
    } else if (v instanceof FixedSizeListVector) {
      FixedSizeListVector l = (FixedSizeListVector) v;
      int n = l.getListSize();
      array(l.getDataVector(), i * n, i * n + n, g);
    } else if (v instanceof BitVector) {
      g.writeBoolean(((BitVector) v).get(i) != 0);
    } else if (quoted(v, i)) {
      g.writeString(scalar(v, i));
    } else {
      // Numbers as the table and CSV show them (Java's float and double text, plain decimals).
      g.writeNumber(scalar(v, i));
    }
  }

  private static void array(ValueVector items, int start, int end, JsonGenerator g) throws IOException {
    g.writeStartArray();
    for (int j = start; j < end; j++) {
      json(items, j, g);
    }
    g.writeEndArray();
  }

  private static boolean nested(ValueVector v) {
    return v instanceof StructVector || v instanceof ListVector || v instanceof LargeListVector
        || v instanceof FixedSizeListVector;
  }

  // Whether JSON needs the scalar in quotes: everything but numbers and booleans.
  private static boolean quoted(ValueVector v, int i) {
    switch (v.getMinorType()) {
      case BIT:
      case TINYINT:
      case SMALLINT:
      case INT:
      case BIGINT:
      case UINT1:
      case UINT2:
      case UINT4:
      case UINT8:
      case DECIMAL:
      case DECIMAL256:
        return false;
      case FLOAT2:
        return !Float.isFinite(((Float2Vector) v).getValueAsFloat(i));
      case FLOAT4:
        return !Float.isFinite(((Float4Vector) v).get(i));
      case FLOAT8:
        return !Double.isFinite(((Float8Vector) v).get(i));
      default:
        return true;
    }
  }

  private static String scalar(ValueVector v, int i) {
    switch (v.getMinorType()) {
      case BIT:
        return ((BitVector) v).get(i) != 0 ? "true" : "false";
      case UINT1:
        return String.valueOf(((UInt1Vector) v).getObjectNoOverflow(i));
      case UINT2:
        return String.valueOf((int) ((UInt2Vector) v).get(i));
      case UINT4:
        return String.valueOf(((UInt4Vector) v).getObjectNoOverflow(i));
      case UINT8:
        return String.valueOf(((UInt8Vector) v).getObjectNoOverflow(i));
      case FLOAT2:
        return Float.toString(((Float2Vector) v).getValueAsFloat(i));
      case FLOAT4:
        return Float.toString(((Float4Vector) v).get(i));
      case FLOAT8:
        return Double.toString(((Float8Vector) v).get(i));
      case DECIMAL:
      case DECIMAL256:
        return ((BigDecimal) v.getObject(i)).toPlainString();
      case VARBINARY:
      case LARGEVARBINARY:
      case VIEWVARBINARY:
      case FIXEDSIZEBINARY:
        return Base64.getEncoder().encodeToString((byte[]) v.getObject(i));
      case DATEDAY:
        return LocalDate.ofEpochDay(((DateDayVector) v).get(i)).toString();
      case DATEMILLI:
        return LocalDate.ofEpochDay(Math.floorDiv(((DateMilliVector) v).get(i), 86_400_000L)).toString();
      case TIMESEC:
        return time(((TimeSecVector) v).get(i) * 1_000_000_000L);
      case TIMEMILLI:
        return time(((TimeMilliVector) v).get(i) * 1_000_000L);
      case TIMEMICRO:
        return time(((TimeMicroVector) v).get(i) * 1_000L);
      case TIMENANO:
        return time(((TimeNanoVector) v).get(i));
      case TIMESTAMPSEC:
      case TIMESTAMPMILLI:
      case TIMESTAMPMICRO:
      case TIMESTAMPNANO:
      case TIMESTAMPSECTZ:
      case TIMESTAMPMILLITZ:
      case TIMESTAMPMICROTZ:
      case TIMESTAMPNANOTZ:
        return timestamp((TimeStampVector) v, i);
      default:
        return String.valueOf(v.getObject(i));
    }
  }

  private static String time(long nanoOfDay) {
    return LocalTime.ofNanoOfDay(nanoOfDay).format(DateTimeFormatter.ISO_LOCAL_TIME);
  }

  private static String timestamp(TimeStampVector v, int i) {
    ArrowType.Timestamp type = (ArrowType.Timestamp) v.getField().getType();
    long value = v.get(i);
    Instant at = instant(value, type.getUnit());
    String tz = type.getTimezone();
    if (tz == null) {
      return LocalDateTime.ofInstant(at, ZoneOffset.UTC).format(DateTimeFormatter.ISO_LOCAL_DATE_TIME);
    }
    try {
      ZoneId zone = ZoneId.of(tz);
      if (zone.normalized().equals(ZoneOffset.UTC)) {
        return DateTimeFormatter.ISO_INSTANT.format(at);
      }
      return at.atZone(zone).toOffsetDateTime().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME);
    } catch (DateTimeException e) {
      // A zone Java does not know: the instant is still right.
      return DateTimeFormatter.ISO_INSTANT.format(at);
    }
  }

  private static Instant instant(long value, TimeUnit unit) {
    switch (unit) {
      case SECOND:
        return Instant.ofEpochSecond(value);
      case MILLISECOND:
        return Instant.ofEpochMilli(value);
      case MICROSECOND:
        return Instant.ofEpochSecond(Math.floorDiv(value, 1_000_000L), Math.floorMod(value, 1_000_000L) * 1_000L);
      default:
        return Instant.ofEpochSecond(Math.floorDiv(value, 1_000_000_000L), Math.floorMod(value, 1_000_000_000L));
    }
  }
}
