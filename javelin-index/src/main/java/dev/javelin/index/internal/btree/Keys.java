package dev.javelin.index.internal.btree;

import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseLargeVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * Orders the values of one indexable Arrow type, straight from vectors (no boxing), the way Lance
 * orders them: nulls first, integers by value (unsigned ones unsigned), floats by IEEE total order
 * (Rust's {@code total_cmp}: NaN above +infinity, -0.0 below 0.0), strings and binaries by unsigned bytes, false before true.
 */
abstract class Keys {
  /** Compares non-null value {@code i} of {@code a} with non-null value {@code j} of {@code b}. */
  abstract int compareValues(ValueVector a, int i, ValueVector b, int j);

  /** Writes a query value (already checked non-null) at position 0 of a fresh one-row vector. */
  abstract void setLiteral(FieldVector v, Object value);

  /** Whether {@link #longKey} gives every value a long whose signed order is the value order. */
  boolean hasLongKeys() {
    return false;
  }

  /** The value's order as a signed long (only when {@link #hasLongKeys}). */
  long longKey(ValueVector v, int i) {
    throw new UnsupportedOperationException();
  }

  /** Nulls first, then {@link #compareValues}. */
  final int compare(ValueVector a, int i, ValueVector b, int j) {
    boolean an = a.isNull(i);
    boolean bn = b.isNull(j);
    if (an || bn) {
      return an == bn ? 0 : an ? -1 : 1;
    }
    return compareValues(a, i, b, j);
  }

  /** A one-row vector holding {@code value} (null for a null), of the type of {@code field}. */
  final FieldVector literal(Field field, Object value, BufferAllocator allocator) {
    FieldVector v = new Field("literal", FieldType.nullable(field.getType()), null).createVector(allocator);
    try {
      v.setInitialCapacity(1);
      v.allocateNew();
      if (value != null) {
        setLiteral(v, value);
      }
      v.setValueCount(1);
      return v;
    } catch (RuntimeException e) {
      v.close();
      throw e;
    }
  }

  /**
   * The ordering for a value type.
   *
   * @throws IllegalArgumentException naming the type when a BTree cannot index it
   */
  static Keys forType(ArrowType type) {
    switch (type.getTypeID()) {
      case Int: {
        ArrowType.Int t = (ArrowType.Int) type;
        return new Integral(t.getBitWidth() / 8, t.getIsSigned());
      }
      case Date:
        return new Integral(((ArrowType.Date) type).getUnit() == DateUnit.DAY ? 4 : 8,
            true);
      case Time:
        return new Integral(((ArrowType.Time) type).getBitWidth() / 8, true);
      case Timestamp:
      case Duration:
        return new Integral(8, true);
      case FloatingPoint: {
        ArrowType.FloatingPoint t = (ArrowType.FloatingPoint) type;
        switch (t.getPrecision()) {
          case SINGLE: return new Floating(4);
          case DOUBLE: return new Floating(8);
          default: break;
        }
        break;
      }
      case Bool:
        return new Bool();
      case Utf8:
      case Binary:
        return new Bytes(false);
      case LargeUtf8:
      case LargeBinary:
        return new Bytes(true);
      default:
        break;
    }
    throw new IllegalArgumentException("A BTree index cannot index values of type " + type);
  }

  /** Integers, dates, times, timestamps: fixed width little-endian, compared as numbers. */
  static final class Integral extends Keys {
    private final int width;
    private final boolean signed;

    Integral(int width, boolean signed) {
      this.width = width;
      this.signed = signed;
    }

    long get(ValueVector v, int i) {
      ArrowBuf d = ((BaseFixedWidthVector) v).getDataBuffer();
      long at = (long) i * width;
      switch (width) {
        case 1: return signed ? d.getByte(at) : d.getByte(at) & 0xFFL;
        case 2: return signed ? d.getShort(at) : d.getShort(at) & 0xFFFFL;
        case 4: return signed ? d.getInt(at) : d.getInt(at) & 0xFFFFFFFFL;
        default: return d.getLong(at);
      }
    }

    @Override
    int compareValues(ValueVector a, int i, ValueVector b, int j) {
      return Long.compare(longKey(a, i), longKey(b, j));
    }

    @Override
    boolean hasLongKeys() {
      return true;
    }

    @Override
    long longKey(ValueVector v, int i) {
      long x = get(v, i);
      // uint64: flipping the sign bit turns unsigned order into signed order.
      return signed || width < 8 ? x : x ^ Long.MIN_VALUE;
    }

    @Override
    void setLiteral(FieldVector v, Object value) {
      long x;
      if (value instanceof LocalDate) {
        long days = ((LocalDate) value).toEpochDay();
        x = width == 4 ? days : days * 86_400_000L;
      } else if (value instanceof Number && !(value instanceof Float || value instanceof Double)) {
        x = ((Number) value).longValue();
      } else {
        throw new IllegalArgumentException("Cannot compare a " + value.getClass().getSimpleName() + " ("
            + value + ") with values of type " + v.getField().getType());
      }
      BaseFixedWidthVector f = (BaseFixedWidthVector) v;
      BitVectorHelper.setBit(f.getValidityBuffer(), 0);
      ArrowBuf d = f.getDataBuffer();
      switch (width) {
        case 1: d.setByte(0, (int) x); break;
        case 2: d.setShort(0, (short) x); break;
        case 4: d.setInt(0, (int) x); break;
        default: d.setLong(0, x); break;
      }
      if (get(v, 0) != x) {
        throw new IllegalArgumentException("Value " + value + " is out of range for values of type "
            + v.getField().getType());
      }
    }
  }

  /** float32 and float64, in IEEE total order like Rust's {@code total_cmp}. */
  static final class Floating extends Keys {
    private final int width;

    Floating(int width) {
      this.width = width;
    }

    @Override
    int compareValues(ValueVector a, int i, ValueVector b, int j) {
      return Long.compare(longKey(a, i), longKey(b, j));
    }

    @Override
    boolean hasLongKeys() {
      return true;
    }

    // IEEE total order (Rust's total_cmp): negative values have their magnitude bits flipped, so
    // -NaN < -inf < ... < -0.0 < 0.0 < ... < +inf < NaN in signed comparison of the result.
    @Override
    long longKey(ValueVector v, int i) {
      ArrowBuf d = ((BaseFixedWidthVector) v).getDataBuffer();
      if (width == 4) {
        int bits = d.getInt((long) i * 4);
        return bits ^ ((bits >> 31) & 0x7FFFFFFF);
      }
      long bits = d.getLong((long) i * 8);
      return bits ^ ((bits >> 63) & Long.MAX_VALUE);
    }

    @Override
    void setLiteral(FieldVector v, Object value) {
      if (!(value instanceof Number)) {
        throw new IllegalArgumentException("Cannot compare a " + value.getClass().getSimpleName() + " ("
            + value + ") with values of type " + v.getField().getType());
      }
      BaseFixedWidthVector f = (BaseFixedWidthVector) v;
      BitVectorHelper.setBit(f.getValidityBuffer(), 0);
      if (width == 4) {
        f.getDataBuffer().setFloat(0, ((Number) value).floatValue());
      } else {
        f.getDataBuffer().setDouble(0, ((Number) value).doubleValue());
      }
    }
  }

  static final class Bool extends Keys {
    @Override
    int compareValues(ValueVector a, int i, ValueVector b, int j) {
      return Integer.compare(((BitVector) a).get(i), ((BitVector) b).get(j));
    }

    @Override
    boolean hasLongKeys() {
      return true;
    }

    @Override
    long longKey(ValueVector v, int i) {
      return ((BitVector) v).get(i);
    }

    @Override
    void setLiteral(FieldVector v, Object value) {
      if (!(value instanceof Boolean)) {
        throw new IllegalArgumentException("Cannot compare a " + value.getClass().getSimpleName() + " ("
            + value + ") with values of type " + v.getField().getType());
      }
      ((BitVector) v).setSafe(0, (Boolean) value ? 1 : 0);
    }
  }

  /** Strings (UTF-8 byte order is code point order) and binaries: unsigned lexicographic. */
  static final class Bytes extends Keys {
    private final boolean large;

    Bytes(boolean large) {
      this.large = large;
    }

    private long start(ValueVector v, int i) {
      // Read from the offsets buffer: the large vector keeps its accessor protected.
      return large ? ((BaseLargeVariableWidthVector) v).getOffsetBuffer().getLong((long) i * 8)
          : ((BaseVariableWidthVector) v).getOffsetBuffer().getInt((long) i * 4);
    }

    private ArrowBuf data(ValueVector v) {
      return large ? ((BaseLargeVariableWidthVector) v).getDataBuffer() : ((BaseVariableWidthVector) v).getDataBuffer();
    }

    @Override
    int compareValues(ValueVector a, int i, ValueVector b, int j) {
      long as = start(a, i);
      long ae = start(a, i + 1);
      long bs = start(b, j);
      long be = start(b, j + 1);
      ArrowBuf ad = data(a);
      ArrowBuf bd = data(b);
      long n = Math.min(ae - as, be - bs);
      for (long k = 0; k < n; k++) {
        int c = Integer.compare(ad.getByte(as + k) & 0xFF, bd.getByte(bs + k) & 0xFF);
        if (c != 0) {
          return c;
        }
      }
      return Long.compare(ae - as, be - bs);
    }

    @Override
    void setLiteral(FieldVector v, Object value) {
      byte[] bytes;
      if (value instanceof String) {
        bytes = ((String) value).getBytes(StandardCharsets.UTF_8);
      } else if (value instanceof byte[]) {
        bytes = (byte[]) value;
      } else {
        throw new IllegalArgumentException("Cannot compare a " + value.getClass().getSimpleName() + " ("
            + value + ") with values of type " + v.getField().getType());
      }
      if (large) {
        ((BaseLargeVariableWidthVector) v).setSafe(0, bytes);
      } else {
        ((BaseVariableWidthVector) v).setSafe(0, bytes);
      }
    }
  }
}
