package dev.javelin.core.expr;

import dev.javelin.core.exceptions.ExpressionException;
import dev.javelin.core.exceptions.ExpressionTypeException;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.NullVector;
import org.apache.arrow.vector.TimeStampNanoVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * An {@link Expression} checked against a schema, ready to evaluate on batches of that schema
 * (batches may hold more columns; they are found by name). Thread-safe: it holds no state
 * between calls.
 */
public final class BoundExpression {
  private final String sql;
  private final Eval eval;
  private final List<String> columns;

  BoundExpression(String sql, Eval eval, Collection<String> columns) {
    this.sql = sql;
    this.eval = eval;
    this.columns = List.copyOf(columns);
  }

  /** The source text. */
  public String sql() {
    return sql;
  }

  /** The top-level columns a batch must hold to evaluate this, as the schema spells them. */
  public List<String> columns() {
    return columns;
  }

  /** Whether this gives true/false values (a filter). */
  public boolean isPredicate() {
    return eval.kind == Kind.BOOL;
  }

  /**
   * The Arrow type {@link #evaluate} returns: Bool, Int(64), FloatingPoint(DOUBLE), Utf8,
   * Date(DAY), Timestamp(NANOSECOND, no zone), or Null for a bare NULL.
   */
  public ArrowType resultType() {
    return switch (eval.kind) {
      case BOOL -> ArrowType.Bool.INSTANCE;
      case LONG -> new ArrowType.Int(64, true);
      case DOUBLE -> new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
      case STRING -> ArrowType.Utf8.INSTANCE;
      case DATE -> new ArrowType.Date(DateUnit.DAY);
      case TIMESTAMP -> new ArrowType.Timestamp(TimeUnit.NANOSECOND, null);
      default -> ArrowType.Null.INSTANCE;
    };
  }

  /**
   * The indices (ascending) of the batch's rows for which this filter is TRUE; rows where it is
   * FALSE or NULL are left out.
   *
   * @throws IllegalStateException if this is not a predicate
   */
  public int[] select(VectorSchemaRoot batch) {
    if (!isPredicate()) {
      throw new IllegalStateException("'" + sql + "' is not a condition");
    }
    Values v = eval.eval(batch);
    int[] out = new int[v.n];
    int k = 0;
    boolean[] b = v.bools;
    if (v.nulls == null) {
      for (int i = 0; i < v.n; i++) {
        if (b[i]) {
          out[k++] = i;
        }
      }
    } else {
      boolean[] nulls = v.nulls;
      for (int i = 0; i < v.n; i++) {
        if (b[i] && !nulls[i]) {
          out[k++] = i;
        }
      }
    }
    return k == out.length ? out : Arrays.copyOf(out, k);
  }

  /**
   * Computes one value per row of the batch into a new vector (of {@link #resultType()}) named
   * {@code name}; the caller closes it.
   *
   * @throws ExpressionException if an integer division by zero happens on a non-null row
   */
  public FieldVector evaluate(VectorSchemaRoot batch, String name, BufferAllocator allocator) {
    Values v = eval.eval(batch);
    int n = v.n;
    FieldVector out = new FieldType(true, resultType(), null).createNewSingleVector(name, allocator, null);
    try {
      switch (eval.kind) {
        case BOOL -> {
          BitVector b = (BitVector) out;
          b.allocateNew(n);
          for (int i = 0; i < n; i++) {
            if (!v.isNull(i)) {
              b.set(i, v.bools[i] ? 1 : 0);
            }
          }
        }
        case LONG -> {
          BigIntVector b = (BigIntVector) out;
          b.allocateNew(n);
          for (int i = 0; i < n; i++) {
            if (!v.isNull(i)) {
              b.set(i, v.longs[i]);
            }
          }
        }
        case DOUBLE -> {
          Float8Vector b = (Float8Vector) out;
          b.allocateNew(n);
          for (int i = 0; i < n; i++) {
            if (!v.isNull(i)) {
              b.set(i, v.doubles[i]);
            }
          }
        }
        case DATE -> {
          DateDayVector b = (DateDayVector) out;
          b.allocateNew(n);
          for (int i = 0; i < n; i++) {
            if (!v.isNull(i)) {
              b.set(i, Math.toIntExact(v.longs[i]));
            }
          }
        }
        case TIMESTAMP -> {
          TimeStampNanoVector b = (TimeStampNanoVector) out;
          b.allocateNew(n);
          for (int i = 0; i < n; i++) {
            if (!v.isNull(i)) {
              b.set(i, v.longs[i]);
            }
          }
        }
        case STRING -> {
          VarCharVector b = (VarCharVector) out;
          b.allocateNew(n);
          byte[] scratch = new byte[64];
          for (int i = 0; i < n; i++) {
            if (!v.isNull(i)) {
              scratch = v.strings.copy(i, scratch);
              b.setSafe(i, scratch, 0, v.strings.length(i));
            }
          }
        }
        default -> {
          ((NullVector) out).setValueCount(n);
          return out;
        }
      }
      out.setValueCount(n);
      return out;
    } catch (RuntimeException e) {
      out.close();
      throw e;
    }
  }

  /**
   * Computes one value per row into a new vector of the target column's type and name (for
   * updates and added columns); the caller closes it. Integers are range-checked per value.
   *
   * @throws ExpressionTypeException if this expression's values cannot be stored in that type
   * @throws ExpressionException if a value does not fit, or an integer division by zero happens
   */
  public FieldVector evaluate(VectorSchemaRoot batch, Field target, BufferAllocator allocator) {
    checkFits(target);
    return Assign.store(eval.eval(batch), target, sql, allocator);
  }

  /**
   * Checks, without data, that this expression's values can be stored in the target column.
   *
   * @throws ExpressionTypeException naming the column and both types if not
   */
  public void checkFits(Field target) {
    if (!Assign.fits(eval.kind, target.getType())) {
      throw new ExpressionTypeException(sql, "Expression", "gives " + eval.kind.display
          + " values which cannot be stored in column '" + target.getName() + "' (" + target.getType() + ")");
    }
  }

  @Override
  public String toString() {
    return sql;
  }
}
