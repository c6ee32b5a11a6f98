package dev.javelin.cli;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.BaseLargeVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DateMilliVector;
import org.apache.arrow.vector.Decimal256Vector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float2Vector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.LargeVarBinaryVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeNanoVector;
import org.apache.arrow.vector.TimeSecVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * Puts plain Java values into Arrow vectors, the one way the Parquet and JSON Lines readers fill
 * their batches. A value is null, a Boolean, a Number (integers, floats; dates as epoch days,
 * times and timestamps as counts of the field's unit), a String, a byte[], a BigDecimal, a
 * {@code Map<String, ?>} for a struct, a {@code List<?>} for a list, or a list of
 * {@code Map.Entry} for a map.
 */
final class VectorValues {
  private VectorValues() {}

  /** A value the vector cannot hold; {@code path} names the nested field ("address.city"). */
  static final class BadValue extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final String path;

    BadValue(String path, String message) {
      super(message);
      this.path = path;
    }
  }

  /**
   * Sets slot {@code i} of {@code v}; returns about how many bytes that took, to bound batches.
   *
   * @throws BadValue if the value is null in a non-nullable field or of the wrong kind
   */
  static long set(FieldVector v, int i, Object value) {
    return set(v, i, value, v.getName());
  }

  private static long set(FieldVector v, int i, Object value, String path) {
    if (value == null) {
      if (!v.getField().isNullable()) {
        throw new BadValue(path, "is null, but the column is not nullable");
      }
      setNull(v, i);
      return 1;
    }
    try {
      return setValue(v, i, value, path);
    } catch (ClassCastException e) {
      throw new BadValue(path, "holds " + describe(value) + " where " + SchemaSpec.name(v.getField().getType())
          + " is expected");
    } catch (ArithmeticException e) {
      throw new BadValue(path, "holds " + value + ", which does not fit "
          + SchemaSpec.name(v.getField().getType()));
    }
  }

  private static long setValue(FieldVector v, int i, Object value, String path) {
    switch (v.getMinorType()) {
      case BIT:
        ((BitVector) v).setSafe(i, ((Boolean) value) ? 1 : 0);
        return 1;
      case TINYINT:
      case SMALLINT:
      case INT:
      case BIGINT:
      case UINT1:
      case UINT2:
      case UINT4:
      case UINT8: {
        long x = ((Number) value).longValue();
        checkRange((ArrowType.Int) v.getField().getType(), x, value, path);
        while (i >= v.getValueCapacity()) {
          v.reAlloc();
        }
        ((BaseIntVector) v).setWithPossibleTruncate(i, x);
        return 8;
      }
      case FLOAT2:
        ((Float2Vector) v).setSafeWithPossibleTruncate(i, ((Number) value).floatValue());
        return 2;
      case FLOAT4:
        ((Float4Vector) v).setSafe(i, ((Number) value).floatValue());
        return 4;
      case FLOAT8:
        ((Float8Vector) v).setSafe(i, ((Number) value).doubleValue());
        return 8;
      case VARCHAR: {
        byte[] b = utf8(value);
        ((VarCharVector) v).setSafe(i, b);
        return b.length;
      }
      case LARGEVARCHAR: {
        byte[] b = utf8(value);
        ((LargeVarCharVector) v).setSafe(i, b);
        return b.length;
      }
      case VARBINARY: {
        byte[] b = (byte[]) value;
        ((VarBinaryVector) v).setSafe(i, b);
        return b.length;
      }
      case LARGEVARBINARY: {
        byte[] b = (byte[]) value;
        ((LargeVarBinaryVector) v).setSafe(i, b);
        return b.length;
      }
      case FIXEDSIZEBINARY: {
        byte[] b = (byte[]) value;
        FixedSizeBinaryVector f = (FixedSizeBinaryVector) v;
        if (b.length != f.getByteWidth()) {
          throw new BadValue(path, "holds " + b.length + " bytes where " + f.getByteWidth() + " are expected");
        }
        f.setSafe(i, b);
        return b.length;
      }
      case DECIMAL: {
        DecimalVector d = (DecimalVector) v;
        d.setSafe(i, decimal((BigDecimal) value, d.getScale(), d.getPrecision(), path));
        return 16;
      }
      case DECIMAL256: {
        Decimal256Vector d = (Decimal256Vector) v;
        d.setSafe(i, decimal((BigDecimal) value, d.getScale(), d.getPrecision(), path));
        return 32;
      }
      case DATEDAY:
        ((DateDayVector) v).setSafe(i, Math.toIntExact(((Number) value).longValue()));
        return 4;
      case DATEMILLI:
        ((DateMilliVector) v).setSafe(i, ((Number) value).longValue());
        return 8;
      case TIMESEC:
        ((TimeSecVector) v).setSafe(i, Math.toIntExact(((Number) value).longValue()));
        return 4;
      case TIMEMILLI:
        ((TimeMilliVector) v).setSafe(i, Math.toIntExact(((Number) value).longValue()));
        return 4;
      case TIMEMICRO:
        ((TimeMicroVector) v).setSafe(i, ((Number) value).longValue());
        return 8;
      case TIMENANO:
        ((TimeNanoVector) v).setSafe(i, ((Number) value).longValue());
        return 8;
      case TIMESTAMPSEC:
      case TIMESTAMPMILLI:
      case TIMESTAMPMICRO:
      case TIMESTAMPNANO:
      case TIMESTAMPSECTZ:
      case TIMESTAMPMILLITZ:
      case TIMESTAMPMICROTZ:
      case TIMESTAMPNANOTZ:
        ((TimeStampVector) v).setSafe(i, ((Number) value).longValue());
        return 8;
      case STRUCT: {
        StructVector s = (StructVector) v;
        Map<?, ?> fields = (Map<?, ?>) value;
        long bytes = 1;
        for (FieldVector child : s.getChildrenFromFields()) {
          bytes += set(child, i, fields.get(child.getName()), path + "." + child.getName());
        }
        s.setIndexDefined(i);
        return bytes;
      }
      case MAP: {
        MapVector m = (MapVector) v;
        StructVector entries = (StructVector) m.getDataVector();
        List<?> list = (List<?>) value;
        int start = m.startNewValue(i);
        long bytes = 4;
        FieldVector keys = entries.getChildrenFromFields().get(0);
        FieldVector values = entries.getChildrenFromFields().get(1);
        for (int j = 0; j < list.size(); j++) {
          Map.Entry<?, ?> e = (Map.Entry<?, ?>) list.get(j);
          bytes += set(keys, start + j, e.getKey(), path + ".key");
          bytes += set(values, start + j, e.getValue(), path + ".value");
          entries.setIndexDefined(start + j);
        }
        m.endValue(i, list.size());
        return bytes;
      }
      case LIST: {
        ListVector l = (ListVector) v;
        List<?> list = (List<?>) value;
        int start = l.startNewValue(i);
        long bytes = 4;
        for (int j = 0; j < list.size(); j++) {
          bytes += set(l.getDataVector(), start + j, list.get(j), path + "[]");
        }
        l.endValue(i, list.size());
        return bytes;
      }
      case LARGELIST: {
        LargeListVector l = (LargeListVector) v;
        List<?> list = (List<?>) value;
        long start = l.startNewValue(i);
        long bytes = 8;
        for (int j = 0; j < list.size(); j++) {
          bytes += set(l.getDataVector(), Math.toIntExact(start + j), list.get(j), path + "[]");
        }
        l.endValue(i, list.size());
        return bytes;
      }
      case FIXED_SIZE_LIST: {
        FixedSizeListVector l = (FixedSizeListVector) v;
        List<?> list = (List<?>) value;
        if (list.size() != l.getListSize()) {
          throw new BadValue(path, "has " + list.size() + " items where " + l.getListSize() + " are expected");
        }
        int start = l.startNewValue(i);
        long bytes = 0;
        for (int j = 0; j < list.size(); j++) {
          bytes += set(l.getDataVector(), start + j, list.get(j), path + "[]");
        }
        return bytes;
      }
      default:
        throw new BadValue(path, "has type " + SchemaSpec.name(v.getField().getType())
            + ", which this input cannot fill");
    }
  }

  private static void checkRange(ArrowType.Int t, long x, Object value, String path) {
    boolean fits;
    if (t.getBitWidth() == 64) {
      // Longs fit (an unsigned one arrives as its bits); a JSON number past int64 is a BigInteger.
      BigInteger big = value instanceof BigInteger ? (BigInteger) value : null;
      fits = big == null || (t.getIsSigned() ? big.bitLength() <= 63 : big.signum() >= 0 && big.bitLength() <= 64);
    } else {
      long min = t.getIsSigned() ? -(1L << (t.getBitWidth() - 1)) : 0;
      long max = t.getIsSigned() ? (1L << (t.getBitWidth() - 1)) - 1 : (1L << t.getBitWidth()) - 1;
      fits = x >= min && x <= max;
    }
    if (!fits) {
      throw new BadValue(path, "holds " + value + ", which does not fit " + SchemaSpec.name(t));
    }
  }

  private static BigDecimal decimal(BigDecimal d, int scale, int precision, String path) {
    BigDecimal scaled;
    try {
      scaled = d.setScale(scale, RoundingMode.UNNECESSARY);
    } catch (ArithmeticException e) {
      throw new BadValue(path, "holds " + d.toPlainString() + ", which has more than " + scale
          + " digits after the point");
    }
    if (scaled.precision() > precision) {
      throw new BadValue(path, "holds " + d.toPlainString() + ", which has more than " + precision + " digits");
    }
    return scaled;
  }

  private static byte[] utf8(Object value) {
    return value instanceof byte[] ? (byte[]) value : ((String) value).getBytes(StandardCharsets.UTF_8);
  }

  private static String describe(Object value) {
    if (value instanceof Map) {
      return "an object";
    }
    if (value instanceof List) {
      return "a list";
    }
    if (value instanceof String) {
      return "text";
    }
    if (value instanceof Boolean) {
      return "a bool";
    }
    if (value instanceof Number) {
      return "a number";
    }
    return "a " + value.getClass().getSimpleName();
  }

  /** Marks slot {@code i} null, keeping the offsets of lists right. */
  static void setNull(FieldVector v, int i) {
    if (v instanceof BaseFixedWidthVector) {
      ((BaseFixedWidthVector) v).setNull(i);
    } else if (v instanceof BaseVariableWidthVector) {
      ((BaseVariableWidthVector) v).setNull(i);
    } else if (v instanceof BaseLargeVariableWidthVector) {
      ((BaseLargeVariableWidthVector) v).setNull(i);
    } else if (v instanceof StructVector) {
      StructVector s = (StructVector) v;
      s.setNull(i);
      for (FieldVector child : s.getChildrenFromFields()) {
        setNull(child, i);
      }
    } else if (v instanceof ListVector) {
      ((ListVector) v).setNull(i);
    } else if (v instanceof LargeListVector) {
      ((LargeListVector) v).setNull(i);
    } else if (v instanceof FixedSizeListVector) {
      ((FixedSizeListVector) v).setNull(i);
    } else {
      throw new IllegalStateException("No null setter for " + v.getField());
    }
  }
}
