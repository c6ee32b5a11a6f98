package dev.javelin.core.expr;

import dev.javelin.core.exceptions.ExpressionException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DateMilliVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Stores computed values into a vector of a column's own type (for updates and added columns):
 * integers into any integer width (range-checked per value) or float, floats into floats, strings,
 * booleans, dates and timestamps into their kinds; NULL into any type.
 */
final class Assign {
  private Assign() {}

  /** Whether values of {@code kind} can be stored in a column of {@code type}. */
  static boolean fits(Kind kind, ArrowType type) {
    if (kind == Kind.NULL) {
      return true;
    }
    Kind target = Binder.kindOf(type);
    if (type instanceof ArrowType.Decimal) {
      return false; // not written by expressions yet
    }
    return target == kind || (kind == Kind.LONG && target == Kind.DOUBLE)
        || (kind == Kind.DATE && target == Kind.TIMESTAMP);
  }

  static FieldVector store(Values v, Field target, String source, BufferAllocator allocator) {
    FieldVector out = target.createVector(allocator);
    try {
      int n = v.n;
      out.setInitialCapacity(n);
      out.allocateNew();
      if (v.kind == Kind.NULL) {
        out.setValueCount(n);
        return out;
      }
      if ((v.kind == Kind.DOUBLE && out instanceof Float8Vector) || (v.kind == Kind.LONG && out instanceof BigIntVector)) {
        storeBulk((BaseFixedWidthVector) out, v);
        return out;
      }
      byte[] scratch = new byte[64];
      for (int i = 0; i < n; i++) {
        if (v.isNull(i)) {
          if (out instanceof BaseFixedWidthVector f) {
            f.setNull(i);
          } else if (out instanceof VarCharVector s) {
            s.setNull(i);
          } else if (out instanceof LargeVarCharVector s) {
            s.setNull(i);
          }
          continue;
        }
        switch (v.kind) {
          case LONG -> storeLong(out, i, v.longs[i], target, source);
          case DOUBLE -> storeDouble(out, i, v.doubles[i]);
          case BOOL -> ((BitVector) out).setSafe(i, v.bools[i] ? 1 : 0);
          case STRING -> {
            scratch = v.strings.copy(i, scratch);
            int len = v.strings.length(i);
            if (out instanceof LargeVarCharVector l) {
              l.setSafe(i, scratch, 0, len);
            } else {
              ((VarCharVector) out).setSafe(i, scratch, 0, len);
            }
          }
          case DATE -> {
            if (out instanceof DateDayVector d) {
              d.setSafe(i, Math.toIntExact(v.longs[i]));
            } else if (out instanceof DateMilliVector d) {
              d.setSafe(i, v.longs[i] * 86_400_000L);
            } else {
              storeTimestamp((TimeStampVector) out, i, v.longs[i] * 86_400_000_000_000L, target);
            }
          }
          case TIMESTAMP -> storeTimestamp((TimeStampVector) out, i, v.longs[i], target);
          default -> throw new IllegalStateException("cannot store " + v.kind);
        }
      }
      out.setValueCount(n);
      return out;
    } catch (RuntimeException e) {
      out.close();
      throw e;
    }
  }

  // 64-bit values into a vector of the same width: one bulk copy, validity set a byte at a time.
  private static void storeBulk(BaseFixedWidthVector out, Values v) {
    int n = v.n;
    if (n > 0) {
      ByteBuffer data = out.getDataBuffer().nioBuffer(0, n * 8).order(ByteOrder.LITTLE_ENDIAN);
      if (v.kind == Kind.DOUBLE) {
        data.asDoubleBuffer().put(v.doubles, 0, n);
      } else {
        data.asLongBuffer().put(v.longs, 0, n);
      }
      ArrowBuf validity = out.getValidityBuffer();
      int full = n / 8;
      validity.setOne(0, full);
      for (int i = full * 8; i < n; i++) {
        BitVectorHelper.setBit(validity, i);
      }
      if (v.nulls != null) {
        for (int i = 0; i < n; i++) {
          if (v.nulls[i]) {
            BitVectorHelper.unsetBit(validity, i);
          }
        }
      }
    }
    out.setValueCount(n);
  }

  private static void storeLong(FieldVector out, int i, long x, Field target, String source) {
    if (out instanceof Float8Vector f) {
      f.setSafe(i, x);
      return;
    }
    if (out instanceof Float4Vector f) {
      f.setSafe(i, x);
      return;
    }
    ArrowType.Int t = (ArrowType.Int) target.getType();
    long min = t.getIsSigned() ? (t.getBitWidth() == 64 ? Long.MIN_VALUE : -(1L << (t.getBitWidth() - 1))) : 0;
    long max = t.getBitWidth() == 64 ? Long.MAX_VALUE
        : t.getIsSigned() ? (1L << (t.getBitWidth() - 1)) - 1 : (1L << t.getBitWidth()) - 1;
    if (x < min || x > max) {
      throw new ExpressionException(source, "Expression '" + source + "' gives " + x + " which does not fit column '"
          + target.getName() + "' (" + t + ")");
    }
    if (out instanceof BigIntVector b) {
      b.setSafe(i, x);
    } else if (out instanceof IntVector b) {
      b.setSafe(i, (int) x);
    } else if (out instanceof SmallIntVector b) {
      b.setSafe(i, (short) x);
    } else if (out instanceof TinyIntVector b) {
      b.setSafe(i, (byte) x);
    } else if (out instanceof UInt1Vector b) {
      b.setSafe(i, (int) x);
    } else if (out instanceof UInt2Vector b) {
      b.setSafe(i, (int) x);
    } else if (out instanceof UInt4Vector b) {
      b.setSafe(i, (int) x);
    } else {
      ((UInt8Vector) out).setSafe(i, x);
    }
  }

  private static void storeDouble(FieldVector out, int i, double x) {
    if (out instanceof Float4Vector f) {
      f.setSafe(i, (float) x);
    } else {
      ((Float8Vector) out).setSafe(i, x);
    }
  }

  private static void storeTimestamp(TimeStampVector out, int i, long nanos, Field target) {
    long per = switch (((ArrowType.Timestamp) target.getType()).getUnit()) {
      case SECOND -> 1_000_000_000L;
      case MILLISECOND -> 1_000_000L;
      case MICROSECOND -> 1_000L;
      case NANOSECOND -> 1L;
    };
    out.setSafe(i, Math.floorDiv(nanos, per));
  }
}
