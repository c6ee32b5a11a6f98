package dev.javelin.core.expr;

import dev.javelin.core.exceptions.ExpressionException;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
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
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/** A bound expression node: computes a {@link Values} column from a batch. */
abstract class Eval {
  final Kind kind;
  /** For a LIST, its elements' kind; null otherwise. */
  final Kind elem;

  Eval(Kind kind) {
    this(kind, null);
  }

  Eval(Kind kind, Kind elem) {
    this.kind = kind;
    this.elem = elem;
  }

  abstract Values eval(VectorSchemaRoot batch);

  /**
   * Like {@link #eval(VectorSchemaRoot)}, but only the rows where {@code only} is true (every row
   * when it is null) need correct values: the others may hold anything. Lets AND and OR skip
   * costly work (LIKE, string comparisons) on rows their left side already decides. Nodes that do
   * not override this evaluate every row, and their children too.
   */
  Values eval(VectorSchemaRoot batch, boolean[] only) {
    return eval(batch);
  }

  /** The value of a non-null literal operand, or null. */
  private static Object constant(Eval e) {
    return e instanceof Literal l ? l.value : null;
  }

  // ---- leaves

  /** Reads a column (or a field nested in structs) of the batch by name. */
  static final class Column extends Eval {
    final List<String> path;
    final ArrowType type;
    final String dotted;

    Column(Kind kind, Kind elem, List<String> path, ArrowType type) {
      super(kind, elem);
      this.path = path;
      this.type = type;
      this.dotted = String.join(".", path);
    }

    @Override
    Values eval(VectorSchemaRoot batch) {
      return eval(batch, null);
    }

    @Override
    Values eval(VectorSchemaRoot batch, boolean[] only) {
      int n = batch.getRowCount();
      FieldVector v = batch.getVector(path.get(0));
      if (v == null) {
        throw new IllegalStateException("The batch has no column '" + path.get(0) + "' for the expression");
      }
      boolean[] parentNulls = null;
      for (int k = 1; k < path.size(); k++) {
        StructVector s = (StructVector) v;
        if (s.getNullCount() > 0) {
          parentNulls = Values.orNulls(parentNulls, nullsOf(s, n));
        }
        v = (FieldVector) s.getChild(path.get(k));
      }
      Values out = read(v, kind, n, only);
      out.nulls = Values.orNulls(out.nulls, parentNulls);
      return out;
    }

    // A list's offsets, and its elements read as one column (rows of `only` are not used: every
    // element is read).
    private Values readList(FieldVector v, int n) {
      Values out = new Values(Kind.LIST, n);
      out.nulls = nullsOf(v, n);
      int[] offs = new int[n + 1];
      FieldVector child;
      if (v instanceof FixedSizeListVector f) {
        int size = f.getListSize();
        for (int i = 0; i <= n; i++) {
          offs[i] = i * size;
        }
        child = f.getDataVector();
      } else if (v instanceof LargeListVector l) {
        for (int i = 0; i <= n; i++) {
          offs[i] = Math.toIntExact(l.getOffsetBuffer().getLong((long) i * 8));
        }
        child = l.getDataVector();
      } else {
        ListVector l = (ListVector) v;
        for (int i = 0; i <= n; i++) {
          offs[i] = l.getOffsetBuffer().getInt((long) i * 4);
        }
        child = l.getDataVector();
      }
      out.offsets = offs;
      out.items = read(child, elem, offs[n], null);
      return out;
    }

    private static boolean[] nullsOf(ValueVector v, int n) {
      if (v.getNullCount() == 0) {
        return null;
      }
      boolean[] nulls = new boolean[n];
      for (int i = 0; i < n; i++) {
        nulls[i] = v.isNull(i);
      }
      return nulls;
    }

    private Values read(FieldVector v, Kind kind, int n, boolean[] only) {
      if (kind == Kind.LIST) {
        return readList(v, n);
      }
      Values out = new Values(kind, n);
      out.nulls = nullsOf(v, n);
      switch (kind) {
        case LONG, DATE, TIMESTAMP -> out.longs = longs(v, n);
        case DOUBLE -> out.doubles = doubles(v, n);
        case BOOL -> {
          ArrowBuf data = ((BitVector) v).getDataBuffer();
          boolean[] bools = new boolean[n];
          for (int i = 0; i < n; i++) {
            bools[i] = BitVectorHelper.get(data, i) != 0;
          }
          out.bools = bools;
        }
        // Only the rows that matter are copied (a selective AND's right side needs few).
        case STRING -> out.strings = v instanceof LargeVarCharVector lv
            ? new Values.Strings(lv.getOffsetBuffer(), lv.getDataBuffer(), true, n, only)
            : new Values.Strings(((VarCharVector) v).getOffsetBuffer(), ((VarCharVector) v).getDataBuffer(), false, n,
                only);
        default -> { } // OTHER: only the null mask is used
      }
      return out;
    }

    private long[] longs(FieldVector v, int n) {
      long[] out = new long[n];
      ArrowBuf d = ((BaseFixedWidthVector) v).getDataBuffer();
      if (v instanceof BigIntVector || v instanceof UInt8Vector) {
        if (n > 0) {
          d.nioBuffer(0, n * 8).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().get(out);
        }
      } else if (v instanceof IntVector || v instanceof DateDayVector) {
        if (n > 0) {
          int[] ints = new int[n];
          d.nioBuffer(0, n * 4).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().get(ints);
          for (int i = 0; i < n; i++) {
            out[i] = ints[i];
          }
        }
      } else if (v instanceof UInt4Vector) {
        for (int i = 0; i < n; i++) {
          out[i] = d.getInt((long) i * 4) & 0xFFFFFFFFL;
        }
      } else if (v instanceof SmallIntVector) {
        for (int i = 0; i < n; i++) {
          out[i] = d.getShort((long) i * 2);
        }
      } else if (v instanceof UInt2Vector) {
        for (int i = 0; i < n; i++) {
          out[i] = d.getShort((long) i * 2) & 0xFFFF;
        }
      } else if (v instanceof TinyIntVector) {
        for (int i = 0; i < n; i++) {
          out[i] = d.getByte(i);
        }
      } else if (v instanceof UInt1Vector) {
        for (int i = 0; i < n; i++) {
          out[i] = d.getByte(i) & 0xFF;
        }
      } else if (v instanceof DateMilliVector) {
        for (int i = 0; i < n; i++) {
          out[i] = Math.floorDiv(d.getLong((long) i * 8), 86_400_000L);
        }
      } else if (v instanceof TimeStampVector) {
        long scale = switch (((ArrowType.Timestamp) v.getField().getType()).getUnit()) {
          case SECOND -> 1_000_000_000L;
          case MILLISECOND -> 1_000_000L;
          case MICROSECOND -> 1_000L;
          case NANOSECOND -> 1L;
        };
        for (int i = 0; i < n; i++) {
          out[i] = d.getLong((long) i * 8) * scale;
        }
      } else {
        throw new IllegalStateException("Unexpected vector " + v.getClass().getSimpleName() + " for " + dotted);
      }
      return out;
    }

    private double[] doubles(FieldVector v, int n) {
      double[] out = new double[n];
      if (v instanceof Float8Vector f) {
        if (n > 0) {
          f.getDataBuffer().nioBuffer(0, n * 8).order(ByteOrder.LITTLE_ENDIAN).asDoubleBuffer().get(out);
        }
      } else if (v instanceof Float4Vector f) {
        ArrowBuf d = f.getDataBuffer();
        for (int i = 0; i < n; i++) {
          out[i] = d.getFloat((long) i * 4);
        }
      } else {
        // Decimals (and half floats) are rare in filters: read through the boxed accessor.
        for (int i = 0; i < n; i++) {
          Object o = v.isNull(i) ? null : v.getObject(i);
          out[i] = o == null ? 0 : ((Number) o).doubleValue();
        }
      }
      return out;
    }
  }

  /** A literal, expanded to every row. */
  static final class Literal extends Eval {
    final Object value;

    Literal(Kind kind, Object value) {
      super(kind);
      this.value = value;
    }

    @Override
    Values eval(VectorSchemaRoot batch) {
      int n = batch.getRowCount();
      Values out = new Values(kind, n);
      if (value == null) {
        out.nulls = new boolean[n];
        Arrays.fill(out.nulls, true);
      }
      switch (kind) {
        case LONG, DATE, TIMESTAMP -> {
          out.longs = new long[n];
          if (value != null) {
            Arrays.fill(out.longs, (Long) value);
          }
        }
        case DOUBLE -> {
          out.doubles = new double[n];
          if (value != null) {
            Arrays.fill(out.doubles, ((Number) value).doubleValue());
          }
        }
        case BOOL -> {
          out.bools = new boolean[n];
          if (value != null) {
            Arrays.fill(out.bools, (Boolean) value);
          }
        }
        case STRING -> out.strings = new Values.Strings(value == null ? "" : (String) value);
        default -> { }
      }
      return out;
    }
  }

  // ---- conversions

  /** LONG to DOUBLE, or DATE to TIMESTAMP. */
  static final class Widen extends Eval {
    final Eval arg;

    Widen(Kind to, Eval arg) {
      super(to);
      this.arg = arg;
    }

    @Override
    Values eval(VectorSchemaRoot batch) {
      Values a = arg.eval(batch);
      Values out = new Values(kind, a.n);
      out.nulls = a.nulls;
      if (kind == Kind.DOUBLE) {
        out.doubles = new double[a.n];
        for (int i = 0; i < a.n; i++) {
          out.doubles[i] = a.longs[i];
        }
      } else {
        out.longs = new long[a.n];
        for (int i = 0; i < a.n; i++) {
          out.longs[i] = a.longs[i] * 86_400_000_000_000L;
        }
      }
      return out;
    }
  }

  // ---- predicates

  static final int EQ = 0;
  static final int NE = 1;
  static final int LT = 2;
  static final int LE = 3;
  static final int GT = 4;
  static final int GE = 5;

  static int opCode(String op) {
    return switch (op) {
      case "=" -> EQ;
      case "!=" -> NE;
      case "<" -> LT;
      case "<=" -> LE;
      case ">" -> GT;
      case ">=" -> GE;
      default -> throw new IllegalArgumentException(op);
    };
  }

  private static boolean test(int op, int c) {
    return switch (op) {
      case EQ -> c == 0;
      case NE -> c != 0;
      case LT -> c < 0;
      case LE -> c <= 0;
      case GT -> c > 0;
      default -> c >= 0;
    };
  }

  /** A comparison of two operands of the same kind. */
  static final class Compare extends Eval {
    final int op;
    final Eval left;
    final Eval right;

    Compare(int op, Eval left, Eval right) {
      super(Kind.BOOL);
      this.op = op;
      this.left = left;
      this.right = right;
    }

    @Override
    Values eval(VectorSchemaRoot batch) {
      return eval(batch, null);
    }

    @Override
    Values eval(VectorSchemaRoot batch, boolean[] only) {
      Values a = left.eval(batch, only);
      Object k = constant(right);
      if (k != null && (left.kind == Kind.LONG || left.kind == Kind.DATE || left.kind == Kind.TIMESTAMP
          || left.kind == Kind.DOUBLE)) {
        return compareToConstant(a, k);
      }
      Values b = right.eval(batch, only);
      int n = a.n;
      Values out = new Values(Kind.BOOL, n);
      out.nulls = Values.orNulls(a.nulls, b.nulls);
      boolean[] r = new boolean[n];
      out.bools = r;
      switch (left.kind) {
        case LONG, DATE, TIMESTAMP -> {
          long[] x = a.longs;
          long[] y = b.longs;
          // One loop per operator keeps the common comparisons branch-free per row.
          switch (op) {
            case EQ -> { for (int i = 0; i < n; i++) { r[i] = x[i] == y[i]; } }
            case NE -> { for (int i = 0; i < n; i++) { r[i] = x[i] != y[i]; } }
            case LT -> { for (int i = 0; i < n; i++) { r[i] = x[i] < y[i]; } }
            case LE -> { for (int i = 0; i < n; i++) { r[i] = x[i] <= y[i]; } }
            case GT -> { for (int i = 0; i < n; i++) { r[i] = x[i] > y[i]; } }
            default -> { for (int i = 0; i < n; i++) { r[i] = x[i] >= y[i]; } }
          }
        }
        case DOUBLE -> {
          double[] x = a.doubles;
          double[] y = b.doubles;
          for (int i = 0; i < n; i++) {
            // Arrow's total order: NaN above every number and equal to itself, -0.0 below 0.0.
            r[i] = test(op, Double.compare(x[i], y[i]));
          }
        }
        case BOOL -> {
          for (int i = 0; i < n; i++) {
            r[i] = test(op, Boolean.compare(a.bools[i], b.bools[i]));
          }
        }
        case STRING -> {
          boolean equality = op == EQ || op == NE;
          for (int i = 0; i < n; i++) {
            if (out.isNull(i) || (only != null && !only[i])) {
              continue;
            }
            if (equality && a.strings.length(i) != b.strings.length(i)) {
              r[i] = op == NE; // different lengths: no need to look at the bytes
            } else {
              r[i] = test(op, Values.Strings.compare(a.strings, i, b.strings, i));
            }
          }
        }
        default -> throw new IllegalStateException("cannot compare " + left.kind);
      }
      return out;
    }

    // A column against a number: the constant is not expanded into an array.
    private Values compareToConstant(Values a, Object c) {
      int n = a.n;
      Values out = new Values(Kind.BOOL, n);
      out.nulls = Values.orNulls(a.nulls, null);
      boolean[] r = new boolean[n];
      out.bools = r;
      if (left.kind == Kind.DOUBLE) {
        double[] x = a.doubles;
        double q = ((Number) c).doubleValue();
        if (!Double.isNaN(q) && q != 0) {
          // Against a number, NaN (above every number) behaves like +infinity: plain
          // comparisons would get it wrong only for NaN rows, so those are fixed after. (Zero is
          // left to the total order below, where -0.0 < 0.0.)
          switch (op) {
            case EQ -> { for (int i = 0; i < n; i++) { r[i] = x[i] == q; } }
            case NE -> { for (int i = 0; i < n; i++) { r[i] = x[i] != q; } }
            case LT -> { for (int i = 0; i < n; i++) { r[i] = x[i] < q; } }
            case LE -> { for (int i = 0; i < n; i++) { r[i] = x[i] <= q; } }
            case GT -> { for (int i = 0; i < n; i++) { r[i] = x[i] > q || x[i] != x[i]; } }
            default -> { for (int i = 0; i < n; i++) { r[i] = x[i] >= q || x[i] != x[i]; } }
          }
          return out;
        }
        for (int i = 0; i < n; i++) {
          r[i] = test(op, Double.compare(x[i], q));
        }
        return out;
      }
      long[] x = a.longs;
      long y = (Long) c;
      switch (op) {
        case EQ -> { for (int i = 0; i < n; i++) { r[i] = x[i] == y; } }
        case NE -> { for (int i = 0; i < n; i++) { r[i] = x[i] != y; } }
        case LT -> { for (int i = 0; i < n; i++) { r[i] = x[i] < y; } }
        case LE -> { for (int i = 0; i < n; i++) { r[i] = x[i] <= y; } }
        case GT -> { for (int i = 0; i < n; i++) { r[i] = x[i] > y; } }
        default -> { for (int i = 0; i < n; i++) { r[i] = x[i] >= y; } }
      }
      return out;
    }
  }

  /**
   * A chain of AND or of OR with SQL's three-valued logic, evaluated part after part in a loop
   * (however long the chain): each part sees only the rows the parts before it left undecided.
   */
  static final class Logic extends Eval {
    final boolean and;
    final List<Eval> parts;

    Logic(boolean and, List<Eval> parts) {
      super(Kind.BOOL);
      if (parts.size() < 2) {
        throw new IllegalArgumentException("A logic chain needs two parts or more: " + parts.size());
      }
      this.and = and;
      this.parts = List.copyOf(parts);
    }

    Logic(boolean and, Eval left, Eval right) {
      this(and, List.of(left, right));
    }

    @Override
    Values eval(VectorSchemaRoot batch) {
      return eval(batch, null);
    }

    @Override
    Values eval(VectorSchemaRoot batch, boolean[] only) {
      Values acc = parts.get(0).eval(batch, only);
      for (int p = 1; p < parts.size(); p++) {
        Values next = combine(acc, parts.get(p), batch, only);
        if (next == null) {
          // Every row that matters is decided: FALSE for AND, TRUE for OR; later parts change nothing.
          Values out = new Values(Kind.BOOL, acc.n);
          out.bools = new boolean[acc.n];
          if (!and) {
            Arrays.fill(out.bools, true);
          }
          return out;
        }
        acc = next;
      }
      return acc;
    }

    // a AND/OR the part; null when a decides every row that matters.
    private Values combine(Values a, Eval part, VectorSchemaRoot batch, boolean[] only) {
      int n = a.n;
      // The part matters only where a does not decide: not FALSE for AND, not TRUE for OR.
      boolean[] undecided = new boolean[n];
      boolean any = false;
      for (int i = 0; i < n; i++) {
        boolean u = (only == null || only[i]) && (a.bools[i] == and || a.isNull(i));
        undecided[i] = u;
        any |= u;
      }
      if (!any) {
        return null;
      }
      Values b = part.eval(batch, undecided);
      Values out = new Values(Kind.BOOL, n);
      boolean[] r = new boolean[n];
      out.bools = r;
      if (a.nulls == null && b.nulls == null) {
        for (int i = 0; i < n; i++) {
          r[i] = and ? a.bools[i] & b.bools[i] : a.bools[i] | b.bools[i];
        }
        return out;
      }
      boolean[] nulls = new boolean[n];
      for (int i = 0; i < n; i++) {
        boolean an = a.isNull(i);
        boolean bn = b.isNull(i);
        boolean av = a.bools[i];
        boolean bv = b.bools[i];
        if (and) {
          // FALSE wins over NULL; otherwise any NULL makes the result NULL.
          if ((!an && !av) || (!bn && !bv)) {
            r[i] = false;
          } else if (an || bn) {
            nulls[i] = true;
          } else {
            r[i] = true;
          }
        } else {
          if ((!an && av) || (!bn && bv)) {
            r[i] = true;
          } else if (an || bn) {
            nulls[i] = true;
          } else {
            r[i] = false;
          }
        }
      }
      out.nulls = nulls;
      return out;
    }
  }

  /**
   * {@code arg IN (non-null constants)} by hash lookup, one probe per row however many constants:
   * TRUE on a hit, FALSE on a miss, NULL for a NULL argument (a NULL in an IN list stays a part of
   * the OR around this, which gives SQL's NULL for a miss).
   */
  static final class InSet extends Eval {
    final Eval arg;
    private final LongHashSet longs;
    private final BytesHashSet strings;
    private final boolean hasTrue;
    private final boolean hasFalse;

    /** {@code values} are of arg's kind (Long for LONG, DATE, TIMESTAMP; Double; String; Boolean). */
    InSet(Eval arg, Collection<Object> values) {
      super(Kind.BOOL);
      this.arg = arg;
      LongHashSet ls = null;
      BytesHashSet bs = null;
      boolean t = false;
      boolean f = false;
      switch (arg.kind) {
        case LONG, DATE, TIMESTAMP -> {
          ls = new LongHashSet(values.size());
          for (Object v : values) {
            ls.add((Long) v);
          }
        }
        case DOUBLE -> {
          ls = new LongHashSet(values.size());
          for (Object v : values) {
            ls.add(doubleKey(((Number) v).doubleValue()));
          }
        }
        case STRING -> {
          bs = new BytesHashSet(values.size());
          for (Object v : values) {
            byte[] b = ((String) v).getBytes(StandardCharsets.UTF_8);
            bs.add(b, 0, b.length);
          }
        }
        case BOOL -> {
          for (Object v : values) {
            t |= (Boolean) v;
            f |= !(Boolean) v;
          }
        }
        default -> throw new IllegalArgumentException("IN over " + arg.kind + " values");
      }
      this.longs = ls;
      this.strings = bs;
      this.hasTrue = t;
      this.hasFalse = f;
    }

    // Equal doubles (as comparisons see them, in total order: NaN = NaN, -0.0 != 0.0) give equal keys.
    private static long doubleKey(double d) {
      return Double.doubleToLongBits(d);
    }

    @Override
    Values eval(VectorSchemaRoot batch) {
      return eval(batch, null);
    }

    @Override
    Values eval(VectorSchemaRoot batch, boolean[] only) {
      Values a = arg.eval(batch, only);
      int n = a.n;
      Values out = new Values(Kind.BOOL, n);
      boolean[] r = new boolean[n];
      out.bools = r;
      switch (arg.kind) {
        case LONG, DATE, TIMESTAMP -> {
          long[] x = a.longs;
          for (int i = 0; i < n; i++) {
            r[i] = longs.contains(x[i]);
          }
        }
        case DOUBLE -> {
          double[] x = a.doubles;
          for (int i = 0; i < n; i++) {
            r[i] = longs.contains(doubleKey(x[i]));
          }
        }
        case STRING -> {
          Values.Strings s = a.strings;
          byte[] bytes = s.bytes();
          for (int i = 0; i < n; i++) {
            if (only == null || only[i]) {
              r[i] = strings.contains(bytes, s.start(i), s.length(i));
            }
          }
        }
        default -> {
          boolean[] x = a.bools;
          for (int i = 0; i < n; i++) {
            r[i] = x[i] ? hasTrue : hasFalse;
          }
        }
      }
      out.nulls = a.nulls;
      return out;
    }
  }

  static final class Not extends Eval {
    final Eval arg;

    Not(Eval arg) {
      super(Kind.BOOL);
      this.arg = arg;
    }

    @Override
    Values eval(VectorSchemaRoot batch) {
      return eval(batch, null);
    }

    @Override
    Values eval(VectorSchemaRoot batch, boolean[] only) {
      Values a = arg.eval(batch, only);
      Values out = new Values(Kind.BOOL, a.n);
      out.nulls = a.nulls;
      out.bools = new boolean[a.n];
      for (int i = 0; i < a.n; i++) {
        out.bools[i] = !a.bools[i];
      }
      return out;
    }
  }

  static final class IsNull extends Eval {
    final Eval arg;
    final boolean negated;

    IsNull(Eval arg, boolean negated) {
      super(Kind.BOOL);
      this.arg = arg;
      this.negated = negated;
    }

    @Override
    Values eval(VectorSchemaRoot batch) {
      Values a = arg.eval(batch);
      Values out = new Values(Kind.BOOL, a.n);
      out.bools = new boolean[a.n];
      for (int i = 0; i < a.n; i++) {
        out.bools[i] = a.isNull(i) != negated;
      }
      return out;
    }
  }

  static final class LikeEval extends Eval {
    final Eval arg;
    final Like like;
    final boolean negated;

    /** ILIKE: rows are lower-cased (the pattern already is) before matching. */
    final boolean caseless;

    LikeEval(Eval arg, Like like, boolean negated, boolean caseless) {
      super(Kind.BOOL);
      this.arg = arg;
      this.like = like;
      this.negated = negated;
      this.caseless = caseless;
    }

    @Override
    Values eval(VectorSchemaRoot batch) {
      return eval(batch, null);
    }

    @Override
    Values eval(VectorSchemaRoot batch, boolean[] only) {
      Values a = arg.eval(batch, only);
      Values out = new Values(Kind.BOOL, a.n);
      out.nulls = a.nulls;
      out.bools = new boolean[a.n];
      if (caseless) {
        byte[] scratch = new byte[64];
        byte[] bytes = a.strings.bytes();
        for (int i = 0; i < a.n; i++) {
          if (a.isNull(i) || (only != null && !only[i])) {
            continue;
          }
          int from = a.strings.start(i);
          int len = a.strings.length(i);
          boolean ascii = true;
          for (int k = from; k < from + len && ascii; k++) {
            ascii = bytes[k] >= 0;
          }
          byte[] text;
          if (ascii) {
            if (scratch.length < len) {
              scratch = new byte[Math.max(len, scratch.length * 2)];
            }
            for (int k = 0; k < len; k++) {
              byte c = bytes[from + k];
              scratch[k] = c >= 'A' && c <= 'Z' ? (byte) (c + 32) : c;
            }
            text = scratch;
          } else {
            text = a.strings.string(i).toLowerCase(java.util.Locale.ROOT).getBytes(StandardCharsets.UTF_8);
            len = text.length;
          }
          out.bools[i] = like.matches(text, len) != negated;
        }
        return out;
      }
      for (int i = 0; i < a.n; i++) {
        if (!a.isNull(i) && (only == null || only[i])) {
          out.bools[i] = like.matches(a.strings, i) != negated;
        }
      }
      return out;
    }
  }

  // ---- arithmetic

  static final class Arith extends Eval {
    final char op;
    final Eval left;
    final Eval right;
    final String source;

    Arith(Kind kind, char op, Eval left, Eval right, String source) {
      super(kind);
      this.op = op;
      this.left = left;
      this.right = right;
      this.source = source;
    }

    @Override
    Values eval(VectorSchemaRoot batch) {
      Values a = left.eval(batch);
      Object c = constant(right);
      if (c != null && left.kind == kind && (kind == Kind.DOUBLE || kind == Kind.LONG)) {
        Values fast = withConstant(a, c);
        if (fast != null) {
          return fast;
        }
      }
      Values b = right.eval(batch);
      int n = a.n;
      Values out = new Values(kind, n);
      out.nulls = Values.orNulls(a.nulls, b.nulls);
      if (kind == Kind.DOUBLE) {
        double[] x = a.doubles;
        double[] y = b.doubles;
        double[] r = new double[n];
        switch (op) {
          case '+' -> { for (int i = 0; i < n; i++) { r[i] = x[i] + y[i]; } }
          case '-' -> { for (int i = 0; i < n; i++) { r[i] = x[i] - y[i]; } }
          case '*' -> { for (int i = 0; i < n; i++) { r[i] = x[i] * y[i]; } }
          case '/' -> { for (int i = 0; i < n; i++) { r[i] = x[i] / y[i]; } }
          default -> { for (int i = 0; i < n; i++) { r[i] = x[i] % y[i]; } }
        }
        out.doubles = r;
        return out;
      }
      long[] x = a.longs;
      long[] y = b.longs;
      long[] r = new long[n];
      switch (op) {
        case '+' -> { for (int i = 0; i < n; i++) { r[i] = x[i] + y[i]; } }
        case '-' -> { for (int i = 0; i < n; i++) { r[i] = x[i] - y[i]; } }
        case '*' -> { for (int i = 0; i < n; i++) { r[i] = x[i] * y[i]; } }
        default -> {
          for (int i = 0; i < n; i++) {
            if (out.isNull(i)) {
              continue;
            }
            if (y[i] == 0) {
              throw new ExpressionException(source, "Expression '" + source + "' divides by zero");
            }
            r[i] = op == '/' ? x[i] / y[i] : x[i] % y[i];
          }
        }
      }
      out.longs = r;
      return out;
    }

    // A column and a number, the common shape ("score * 2", "id % 10"): the constant is not
    // expanded into an array. Null when the general path must run (an integer division by zero).
    private Values withConstant(Values a, Object c) {
      int n = a.n;
      Values out = new Values(kind, n);
      out.nulls = Values.orNulls(a.nulls, null);
      if (kind == Kind.DOUBLE) {
        double[] x = a.doubles;
        double y = ((Number) c).doubleValue();
        double[] r = new double[n];
        switch (op) {
          case '+' -> { for (int i = 0; i < n; i++) { r[i] = x[i] + y; } }
          case '-' -> { for (int i = 0; i < n; i++) { r[i] = x[i] - y; } }
          case '*' -> { for (int i = 0; i < n; i++) { r[i] = x[i] * y; } }
          case '/' -> { for (int i = 0; i < n; i++) { r[i] = x[i] / y; } }
          default -> { for (int i = 0; i < n; i++) { r[i] = x[i] % y; } }
        }
        out.doubles = r;
        return out;
      }
      long[] x = a.longs;
      long y = (Long) c;
      long[] r = new long[n];
      switch (op) {
        case '+' -> { for (int i = 0; i < n; i++) { r[i] = x[i] + y; } }
        case '-' -> { for (int i = 0; i < n; i++) { r[i] = x[i] - y; } }
        case '*' -> { for (int i = 0; i < n; i++) { r[i] = x[i] * y; } }
        default -> {
          if (y == 0) {
            return null;
          }
          divide(x, y, op == '/', r, n);
        }
      }
      out.longs = r;
      return out;
    }

    /** Below this, |x| times a rounded reciprocal is within one of the true quotient. */
    private static final long EXACT = 1L << 51;

    /**
     * x / y or x % y (Java's truncating semantics) for a constant y != 0. A 64-bit integer division
     * costs tens of cycles; for |x| and |y| up to 2^51 the quotient is estimated by multiplying
     * with y's reciprocal in floating point (off by at most one, which the remainder's range then
     * corrects), falling back to the integer operators elsewhere.
     */
    static void divide(long[] x, long y, boolean quotient, long[] r, int n) {
      if (y == Long.MIN_VALUE || Math.abs(y) > EXACT) {
        for (int i = 0; i < n; i++) {
          r[i] = quotient ? x[i] / y : x[i] % y;
        }
        return;
      }
      long a = Math.abs(y);
      double inverse = 1.0 / a;
      boolean negate = y < 0;
      for (int i = 0; i < n; i++) {
        long v = x[i];
        if (v < -EXACT || v > EXACT) {
          r[i] = quotient ? v / y : v % y;
          continue;
        }
        long m = Math.abs(v);
        long q = (long) (m * inverse);
        long rem = m - q * a;
        // rem is in [-a, 2a): bring it into [0, a), moving q along.
        long under = rem >> 63;
        rem += a & under;
        q += under;
        long over = rem >= a ? 1 : 0;
        rem -= a * over;
        q += over;
        if (quotient) {
          r[i] = (v < 0) != negate ? -q : q;
        } else {
          r[i] = v < 0 ? -rem : rem;
        }
      }
    }
  }

  static final class Negate extends Eval {
    final Eval arg;

    Negate(Eval arg) {
      super(arg.kind);
      this.arg = arg;
    }

    @Override
    Values eval(VectorSchemaRoot batch) {
      Values a = arg.eval(batch);
      Values out = new Values(kind, a.n);
      out.nulls = a.nulls;
      if (kind == Kind.DOUBLE) {
        out.doubles = new double[a.n];
        for (int i = 0; i < a.n; i++) {
          out.doubles[i] = -a.doubles[i];
        }
      } else {
        out.longs = new long[a.n];
        for (int i = 0; i < a.n; i++) {
          out.longs[i] = -a.longs[i];
        }
      }
      return out;
    }
  }
}
